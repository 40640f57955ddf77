/**
 * The crash suite's listener case: a published flow whose trigger consumes a RabbitMQ queue
 * (`rabbitmq.newMessage`) and whose action POSTs the message's id to the sink. Each cycle publishes
 * a burst of persistent messages, each with its own AMQP `messageId`, and kills the process that
 * holds the subscription with SIGKILL at a random moment of it (on SQLite the one process, on
 * Postgres whichever of the server and two workers holds it), then starts it again; the next cycle
 * waits until a process holds the subscription again (after the dead one's 10 s lease) and the
 * broker shows its consumer. Afterwards every message the broker confirmed must have exactly one
 * execution, finished as a success, whose one effect reached the sink under exactly one idempotency
 * key; and no message may be left in the queue, ready or unacknowledged.
 *
 * CRASH_LISTENER_CYCLES sets the cycles per database (default 20: about 12 s each, most of it the
 * dead holder's lease); CRASH_SETTLE_SECONDS how long the runs may take to finish once the killing
 * stops (default 180); CRASH_AMQP_URL the broker (default the machine's, guest on 127.0.0.1:5672).
 * RabbitMQ and PostgreSQL are shared with other suites: neither is ever restarted here.
 */
import { randomBytes } from 'node:crypto';
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import { afterEach, describe, expect, it } from 'vitest';
import { callApi, newFlow } from '../support/api-client.js';
import { DIALECTS } from '../support/databases.js';
import { rawQuery } from '../support/raw-sql.js';
import { processDatabase } from '../support/server-process.js';
import { serviceAvailable } from '../support/services.js';
import { type Cluster, crashEnvironment, createCluster, type Member } from './cluster.js';
import { report } from './report.js';
import { type Sink, startSink } from './sink.js';
import { type CrashTally, expectExactlyOnce, settled, tally, tallyFigures } from './tally.js';
import { type Ledger, newLedger } from './webhooks.js';

const CYCLES = Number(process.env.CRASH_LISTENER_CYCLES ?? 20);
const SETTLE_MS = Number(process.env.CRASH_SETTLE_SECONDS ?? 180) * 1000;
const BROKER = process.env.CRASH_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
/** How long a process may take to hold the subscription again: the dead holder's lease (10 s) and a margin. */
const TAKEOVER_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (min: number, max: number) => min + Math.floor(Math.random() * (max - min));

/** Publishes rabbitmq.newMessage (the queue) → HTTP request (POST the message's id to the sink). */
const publishFlow = async (base: string, sinkUrl: string, queue: string) => {
  const admin = { email: 'crash@example.com', password: 'a long password', fullName: 'Crash' };
  const { token, flowId, triggerId, actionId } = await newFlow(base, admin);
  const connection = (
    await callApi(base, 'POST', '/apps/rabbitmq/connections', token, { formattedData: { url: BROKER } })
  ).data;
  await callApi(base, 'PATCH', `/steps/${triggerId}`, token, {
    appKey: 'rabbitmq',
    key: 'newMessage',
    connectionId: connection.id,
    parameters: { queue, prefetch: 10 },
  });
  await callApi(base, 'PATCH', `/steps/${actionId}`, token, {
    appKey: 'http-request',
    key: 'customRequest',
    parameters: { method: 'POST', url: sinkUrl, data: `{"id": "{{step.${triggerId}.content.id}}"}` },
  });
  await callApi(base, 'PATCH', `/flows/${flowId}/status`, token, { active: true });
  return { flowId, triggerId, actionId };
};

/**
 * Publishes persistent JSON messages `{ id }` with `messageId` = id, one every few milliseconds
 * until `durationMs` has passed. A message the broker confirmed is acknowledged (it must run
 * exactly once); the broker is not restarted, so every one should be.
 */
const publishBurst = async (
  channel: ConfirmChannel,
  queue: string,
  prefix: string,
  durationMs: number,
  ledger: Ledger,
) => {
  const deadline = Date.now() + durationMs;
  const confirms: Promise<void>[] = [];
  while (Date.now() < deadline) {
    const id = `${prefix}-${ledger.sent++}`;
    confirms.push(
      new Promise<void>((resolve) => {
        channel.sendToQueue(
          queue,
          Buffer.from(JSON.stringify({ id })),
          { persistent: true, messageId: id, contentType: 'application/json' },
          (error) => {
            if (error) ledger.unanswered++;
            else ledger.acknowledged.add(id);
            resolve();
          },
        );
      }),
    );
    await sleep(between(2, 12));
  }
  await Promise.all(confirms);
};

describe.runIf(await serviceAvailable('rabbitmq')).each(DIALECTS)(
  'a listener’s process killed during a burst of messages (%s)',
  (dialect) => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('loses no message and repeats no run or effect', { timeout: 60 * 60_000 }, async () => {
      const broker: ChannelModel = await amqp.connect(BROKER);
      cleanups.push(() => broker.close().catch(() => {}));
      const publisher = await broker.createConfirmChannel();
      const watcher = await broker.createChannel();
      const queue = `conveyor-crash-${randomBytes(5).toString('hex')}`;
      await watcher.assertQueue(queue, { durable: true });
      cleanups.push(async () => {
        await watcher.deleteQueue(queue).catch(() => {});
      });

      const sink: Sink = await startSink();
      cleanups.push(() => sink.close());
      const database = await processDatabase(dialect, cleanups);
      // SQLite: one process. Postgres: the server and two workers, any of which may hold the subscription.
      const cluster: Cluster = createCluster(crashEnvironment(dialect, database), dialect === 'postgres' ? 2 : 0);
      cleanups.push(() => cluster.stopAll());
      await cluster.startMissing();
      const flow = await publishFlow(cluster.base(), sink.url, queue);
      const { flowId, triggerId } = flow;

      // The broker's view, sampled all along: never two consumers at once (one holder at a time).
      let mostConsumers = 0;
      let sampling = true;
      let samplingFailed: unknown;
      const sampler = (async () => {
        while (sampling) {
          const { consumerCount } = await watcher.checkQueue(queue);
          mostConsumers = Math.max(mostConsumers, consumerCount);
          await sleep(50);
        }
      })().catch((error: unknown) => {
        samplingFailed = error;
      });
      cleanups.push(async () => {
        sampling = false;
        await sampler;
      });

      /** The running member that holds the subscription, once the broker shows its consumer. */
      const holder = async (): Promise<Member> => {
        const deadline = Date.now() + TAKEOVER_MS;
        while (Date.now() < deadline) {
          const [row] = await rawQuery(database.DATABASE_URL, 'select holder from flow_listeners where flow_id = ?', [
            flowId,
          ]);
          const pid = /:(\d+):[^:]*$/.exec(String(row?.holder ?? ''))?.[1];
          const member = pid === undefined ? undefined : cluster.withPid(Number(pid));
          if (member && (await watcher.checkQueue(queue)).consumerCount === 1) return member;
          await sleep(100);
        }
        throw new Error(`no process held the subscription within ${TAKEOVER_MS} ms`);
      };

      const ledger = newLedger();
      const kills = new Map<string, number>();
      /** From each kill until the broker shows the next holder's consumer. */
      const takeovers: number[] = [];
      let killedAt: number | null = null;
      const started = Date.now();
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        await cluster.startMissing();
        const victim = await holder();
        if (killedAt !== null) takeovers.push(Date.now() - killedAt);
        // The burst goes on past the kill, so that messages also arrive while nobody holds the queue.
        const durationMs = between(500, 2500);
        const burst = publishBurst(publisher, queue, `c${cycle}`, durationMs, ledger);
        await sleep(between(100, durationMs));
        kills.set(victim.name, (kills.get(victim.name) ?? 0) + 1);
        await cluster.kill(victim);
        killedAt = Date.now();
        await burst;
      }
      await cluster.startMissing();
      const cyclesMs = Date.now() - started;

      const messageId = (out: any) => out?.content?.id;
      const count = () => tally({ databaseUrl: database.DATABASE_URL, ...flow, ledger, sink, idOf: messageId });
      let result: CrashTally = await count();
      let ready = (await watcher.checkQueue(queue)).messageCount;
      const deadline = Date.now() + SETTLE_MS;
      while (!(settled(result) && ready === 0) && Date.now() < deadline) {
        await sleep(1000);
        await cluster.startMissing();
        result = await count();
        ready = (await watcher.checkQueue(queue)).messageCount;
        if (process.env.CRASH_PROGRESS)
          process.stdout.write(
            `settling ${Math.round((Date.now() - started - cyclesMs) / 1000)} s: ready ${ready}, executions ${result.executions}, unfinished ${result.unsuccessful.length}, lost ${result.lost.length}\n`,
          );
      }
      const settleMs = Date.now() - started - cyclesMs;
      // Runs started by a message the broker delivered again: a dead holder had it, but not its run.
      const redelivered = (
        await rawQuery(database.DATABASE_URL, 'select data_out from execution_steps where step_id = ?', [triggerId])
      ).filter((row) => {
        const out = typeof row.data_out === 'string' ? JSON.parse(row.data_out) : row.data_out;
        return out?.fields?.redelivered === true;
      }).length;

      // Every process killed: what the broker still held unacknowledged goes back to the queue.
      await cluster.stopAll();
      let left = await watcher.checkQueue(queue);
      for (let n = 0; n < 100 && left.consumerCount > 0; n++) {
        await sleep(100);
        left = await watcher.checkQueue(queue);
      }

      report(
        'crash suite, listener',
        dialect,
        {
          'kill cycles': CYCLES,
          kills: [...kills].map(([name, n]) => `${name} ${n}`).join(' / ') || '0',
          'messages published': ledger.sent,
          'confirmed by the broker': ledger.acknowledged.size,
          'not confirmed': ledger.unanswered,
          ...tallyFigures(result),
          'unconfirmed that ran': result.unacknowledgedRun,
          'runs of redelivered messages': redelivered,
          'messages left in the queue': left.messageCount,
          'most consumers at once': mostConsumers,
          'kill to next consumer': `${(Math.min(...takeovers) / 1000).toFixed(1)}-${(Math.max(...takeovers) / 1000).toFixed(1)} s`,
          'unexpected process exits': cluster.unexpectedExits.length,
          'cycles took': `${Math.round(cyclesMs / 1000)} s`,
          'settling took': `${Math.round(settleMs / 1000)} s`,
        },
        cluster,
      );

      expectExactlyOnce(result);
      expect(result.executions).toBe(ledger.acknowledged.size);
      expect(ledger.unanswered).toBe(0);
      expect(left).toMatchObject({ messageCount: 0, consumerCount: 0 });
      expect(samplingFailed).toBeUndefined();
      expect(mostConsumers).toBe(1);
      expect(cluster.unexpectedExits.map((exit) => exit.name)).toEqual([]);
      expect(ledger.acknowledged.size).toBeGreaterThan(CYCLES * 20);
    });
  },
);
