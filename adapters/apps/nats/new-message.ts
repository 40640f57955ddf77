import type { Msg, NatsConnection } from 'nats';
import { defineTrigger, text } from '../sdk/index.js';
import { natsAuth, natsFailure, openConnection, whyClosed, withConnection } from './connection.js';
import { headersData, nameProblem, payloadData, subjectFilterProblem } from './subjects.js';

/** What a flow reads of a core NATS message: the trigger's output. */
export const messageData = (msg: Msg) => {
  const headers = headersData(msg.headers);
  return {
    subject: msg.subject,
    data: payloadData(msg.data),
    ...(headers && { headers }),
    ...(msg.reply && { reply: msg.reply }),
  };
};

/** Messages held while the flow's runs are being accepted; past it, new ones are dropped (and logged), as a NATS server drops a slow consumer's. */
export const PENDING_LIMIT = 1000;
const SAMPLE_WAIT_MS = 2000;

const firstMessage = async (nc: NatsConnection, subject: string): Promise<Msg | null> => {
  const subscription = nc.subscribe(subject, { max: 1, timeout: SAMPLE_WAIT_MS });
  try {
    for await (const msg of subscription) return msg;
    return null;
  } catch {
    // The time-out: nothing came.
    return null;
  }
};

export const newMessage = defineTrigger({
  key: 'newMessage',
  name: 'New message',
  description:
    'Starts the flow with each message published on a subject (wildcards * and > allowed). Core NATS keeps nothing: messages sent while the flow is not listening are not received.',
  type: 'listener',
  arguments: {
    subject: text({
      label: 'Subject',
      required: true,
      placeholder: 'orders.*.created',
      description: '* matches one part, > the rest (orders.>).',
      check: subjectFilterProblem,
    }),
    queueGroup: text({
      label: 'Queue group',
      description: 'Subscribers in the same queue group share the messages: each goes to one of them.',
      check: nameProblem,
    }),
  },
  async run(ctx) {
    const msg = await withConnection(ctx, natsAuth.read(ctx.auth), (nc) => firstMessage(nc, ctx.parameters.subject));
    return msg ? [{ data: messageData(msg) }] : [];
  },
  async listen(ctx) {
    const { subject, queueGroup } = ctx.parameters;
    const { nc, where } = await openConnection(ctx, natsAuth.read(ctx.auth));
    const closing = () => {
      nc.close().catch(() => {});
    };
    ctx.signal.addEventListener('abort', closing, { once: true });
    const pending: Msg[] = [];
    let dropped = 0;
    let refused: Error | null = null;
    let wake = () => {};
    const broken = whyClosed(nc, where);
    broken.then(() => wake());
    try {
      nc.subscribe(subject, {
        ...(queueGroup && { queue: queueGroup }),
        callback: (error, msg) => {
          if (error) {
            // A permissions violation: the server refused the subscription.
            refused = error;
            nc.close().catch(() => {});
            return;
          }
          if (pending.length >= PENDING_LIMIT) dropped++;
          else pending.push(msg);
          wake();
        },
      });
      // Once the server answers the flush, it has the subscription.
      await nc.flush();
      ctx.subscribed();
      while (!nc.isClosed()) {
        const msg = pending.shift();
        if (!msg) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          continue;
        }
        if (dropped > 0) {
          ctx.log.warn({ subject, dropped }, 'nats: messages dropped, more were waiting than the pending limit');
          dropped = 0;
        }
        try {
          await ctx.emit({ data: messageData(msg) });
        } catch (error) {
          // At most once: core NATS has nothing to deliver again.
          if (!ctx.signal.aborted)
            ctx.log.warn(
              { subject: msg.subject, reason: (error as Error).message },
              'nats: a message was not accepted',
            );
        }
      }
      if (refused) throw natsFailure(refused, where);
      if (!ctx.signal.aborted) throw await broken;
    } finally {
      ctx.signal.removeEventListener('abort', closing);
      if (!nc.isClosed()) await nc.close().catch(() => {});
    }
  },
});
