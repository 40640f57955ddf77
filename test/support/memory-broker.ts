import {
  defineAction,
  defineApp,
  defineTrigger,
  fieldsAuth,
  type ListenerMessage,
  number,
  text,
} from '../../adapters/apps/sdk/index.js';
import { TEST_ICON } from './test-icon.js';

interface Delivery {
  readonly id?: string;
  readonly body: unknown;
  redelivered: boolean;
}

interface Consumer {
  readonly queue: string;
  readonly prefetch: number;
  unacked: number;
  readonly deliver: (delivery: Delivery) => void;
  readonly fail: (error: Error) => void;
}

/**
 * A message broker in the test's memory, with what the engine relies on in a real one: queues,
 * consumers with a prefetch, acknowledgements, redelivery of what was not acknowledged (flagged
 * `redelivered`), and a connection that can break. The `test-broker` app below listens to it.
 */
export class MemoryBroker {
  readonly queues = new Map<string, Delivery[]>();
  readonly consumers = new Set<Consumer>();
  readonly acked: unknown[] = [];
  password = 'secret';
  /** While set, connecting fails with this message and open consumers are cut off. */
  down: string | null = null;
  /** How many times a consumer connected. */
  connections = 0;
  /** The `hold` action's runs wait until this resolves. */
  held: Promise<void> = Promise.resolve();
  /** Runs of the `hold` action under way. */
  holding = 0;

  /** Makes `hold` runs wait; answers what lets them go. */
  holdRuns(): () => void {
    let release = () => {};
    this.held = new Promise<void>((resolve) => {
      release = resolve;
    });
    return release;
  }

  publish(queue: string, body: unknown, id?: string): void {
    this.queue(queue).push({ ...(id !== undefined && { id }), body, redelivered: false });
    this.pump();
  }

  /** Cuts every consumer off (their unacknowledged messages go back to their queues) and refuses new ones. */
  breakDown(reason: string): void {
    this.down = reason;
    for (const consumer of [...this.consumers]) consumer.fail(new Error(reason));
  }

  repair(): void {
    this.down = null;
  }

  ready(queue: string): number {
    return this.queue(queue).length;
  }

  private queue(name: string): Delivery[] {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = [];
      this.queues.set(name, queue);
    }
    return queue;
  }

  pump(): void {
    for (const consumer of this.consumers) {
      const queue = this.queue(consumer.queue);
      while (consumer.unacked < consumer.prefetch && queue.length > 0) {
        const delivery = queue.shift() as Delivery;
        consumer.unacked++;
        consumer.deliver(delivery);
      }
    }
  }

  /** Consumes until `signal` aborts (resolves) or the broker breaks down (throws). */
  consume(
    password: string,
    queue: string,
    prefetch: number,
    handle: (delivery: Delivery) => Promise<boolean>,
    signal: AbortSignal,
    subscribed: () => void,
  ): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    if (this.down) return Promise.reject(new Error(this.down));
    if (password !== this.password) return Promise.reject(new Error('authentication failed'));
    this.connections++;
    return new Promise<void>((resolve, reject) => {
      const inFlight = new Set<Delivery>();
      let closed = false;
      const end = (error: Error | null) => {
        if (closed) return;
        closed = true;
        this.consumers.delete(consumer);
        // What was delivered and not acknowledged goes back to the front, as a redelivery.
        const back = [...inFlight].map((delivery) => ({ ...delivery, redelivered: true }));
        this.queue(queue).unshift(...back);
        inFlight.clear();
        if (error) reject(error);
        else resolve();
        this.pump();
      };
      const consumer: Consumer = {
        queue,
        prefetch,
        unacked: 0,
        deliver: (delivery) => {
          inFlight.add(delivery);
          void handle(delivery).then((ack) => {
            if (closed || !inFlight.has(delivery)) return;
            inFlight.delete(delivery);
            consumer.unacked--;
            if (ack) this.acked.push(delivery.body);
            else this.queue(queue).push({ ...delivery, redelivered: true });
            this.pump();
          });
        },
        fail: (error) => end(error),
      };
      this.consumers.add(consumer);
      signal.addEventListener('abort', () => end(null), { once: true });
      subscribed();
      this.pump();
    });
  }
}

/** The app over a broker: a listener trigger on a queue, and an action that publishes. */
export const brokerApp = (broker: MemoryBroker) =>
  defineApp({
    key: 'test-broker',
    name: 'Test broker',
    description: 'Queues in the test’s memory.',
    icon: TEST_ICON,
    primaryColor: '#884400',
    version: 1,
    auth: fieldsAuth({
      fields: { password: text({ label: 'Password', required: true, secret: true }) },
      async verify(ctx) {
        if (ctx.auth.data.password !== broker.password) throw new Error('authentication failed');
        return { screenName: 'broker' };
      },
    }),
    triggers: [
      defineTrigger({
        key: 'newMessage',
        name: 'New message',
        description: 'A message in a queue.',
        type: 'listener',
        arguments: {
          queue: text({ label: 'Queue', required: true }),
          prefetch: number({ label: 'Prefetch', default: 5, integer: true, min: 1 }),
        },
        run: async () => [{ data: { body: 'sample' } }],
        listen: (ctx) =>
          broker.consume(
            String(ctx.auth.data.password),
            ctx.parameters.queue,
            ctx.parameters.prefetch,
            async (delivery) => {
              const message: ListenerMessage = {
                ...(delivery.id !== undefined && { id: delivery.id }),
                redelivered: delivery.redelivered,
                data: { body: delivery.body },
              };
              try {
                await ctx.emit(message);
                return true;
              } catch {
                return false;
              }
            },
            ctx.signal,
            () => ctx.subscribed(),
          ),
      }),
    ],
    actions: [
      defineAction({
        key: 'publish',
        name: 'Publish',
        description: 'Puts a message in a queue.',
        arguments: {
          queue: text({ label: 'Queue', required: true }),
          body: text({ label: 'Body', acceptsVariables: true }),
        },
        async run(ctx) {
          broker.publish(ctx.parameters.queue, ctx.parameters.body ?? '');
          return { published: true };
        },
      }),
      defineAction({
        key: 'hold',
        name: 'Hold',
        description: 'Waits until the test lets runs go.',
        arguments: {},
        async run() {
          broker.holding++;
          try {
            await broker.held;
          } finally {
            broker.holding--;
          }
          return { held: true };
        },
      }),
    ],
  });
