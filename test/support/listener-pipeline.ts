/**
 * A RabbitMQ queue → MariaDB table flow on a Conveyor running as its own processes, driven over
 * HTTP only, as the listener end-to-end test (test/e2e/listener-rabbitmq-mariadb.test.ts) and
 * `npm run bench:listener` (scripts/bench-listener.ts) use it: a queue and a table of its own, a
 * published flow whose rabbitmq `newMessage` trigger inserts one row per message, and what measures it.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import amqp from 'amqplib';
import { type Account, callApi } from './api-client.js';
import { localMariaDb, withMariaDb } from './mariadb.js';
import { brokerConnectionsNamed, LOCAL_AMQP_URL, queueCounts, rabbitmqctl } from './rabbitmq.js';

export interface ListenerView {
  readonly status: 'starting' | 'listening' | 'failing';
  readonly failures: number;
  readonly lastError: string | null;
}

/** Polls `read` every `everyMs` until `check` holds; throws naming `what` (and the last value) after `timeoutMs`. */
export const until = async <T>(
  what: string,
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs: number,
  everyMs = 250,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}: ${JSON.stringify(value)}`);
    await sleep(everyMs);
  }
};

const ADMIN: Account = { email: 'listener@example.com', password: 'a long password', fullName: 'Listener' };

/**
 * Declares a durable queue and creates a table (`id` AUTO_INCREMENT, `message_id`, `n`, no unique
 * key, so a duplicate would show), installs the instance at `base`, connects both apps and
 * publishes the flow; resolves once its listener is `listening`.
 */
export const openPipeline = async (base: string, { prefetch }: { prefetch?: number } = {}) => {
  const suffix = randomBytes(5).toString('hex');
  const queue = `conveyor-e2e-${suffix}`;
  const table = `conveyor_e2e_${suffix}`;
  const broker = await amqp.connect(LOCAL_AMQP_URL);
  const channel = await broker.createConfirmChannel();
  await channel.assertQueue(queue, { durable: true });
  await withMariaDb((db) =>
    db.query(
      `CREATE TABLE ${table} (id INT AUTO_INCREMENT PRIMARY KEY, message_id VARCHAR(64) NOT NULL, n INT NOT NULL)`,
    ),
  );

  await callApi(base, 'POST', '/installation/users', undefined, ADMIN);
  const token: string = (await callApi(base, 'POST', '/access-tokens', undefined, ADMIN)).data.token;
  const api = (method: string, path: string, body?: unknown) => callApi(base, method, path, token, body);
  const rabbit = (await api('POST', '/apps/rabbitmq/connections', { formattedData: { url: LOCAL_AMQP_URL } })).data;
  const mysql = (await api('POST', '/apps/mysql/connections', { formattedData: { ...localMariaDb, ssl: false } })).data;
  const flow = (await api('POST', '/flows')).data;
  const [trigger, action] = flow.steps as { id: string }[];
  if (!trigger || !action) throw new Error('a new flow has a trigger and an action');
  await api('PATCH', `/steps/${trigger.id}`, {
    appKey: 'rabbitmq',
    key: 'newMessage',
    connectionId: rabbit.id,
    parameters: { queue, ...(prefetch !== undefined && { prefetch }) },
  });
  await api('PATCH', `/steps/${action.id}`, {
    appKey: 'mysql',
    key: 'insertRow',
    connectionId: mysql.id,
    parameters: {
      table,
      values: [
        { key: 'message_id', value: `{{step.${trigger.id}.properties.messageId}}` },
        { key: 'n', value: `{{step.${trigger.id}.content.n}}` },
      ],
    },
  });
  const flowId: string = flow.id;
  await api('PATCH', `/flows/${flowId}/status`, { active: true });

  const listener = async (): Promise<ListenerView | null> => (await api('GET', `/flows/${flowId}`)).data.listener;
  /** How many of the flow's executions there are (with this status). */
  const executions = async (status?: string): Promise<number> =>
    (await api('GET', `/executions?flowId=${flowId}&perPage=1${status ? `&status=${status}` : ''}`)).meta.count;

  await until('the listener to listen', listener, (l) => l?.status === 'listening', 30_000);

  return {
    queue,
    table,
    flowId,
    listener,
    executions,

    /** Publishes messages `from` ≤ n < `to`: JSON `{"n":n}`, messageId `m-<n>`, persistent; waits for the broker's confirms. */
    async publish(from: number, to: number) {
      for (let n = from; n < to; n++) {
        const sent = channel.sendToQueue(queue, Buffer.from(JSON.stringify({ n })), {
          messageId: `m-${n}`,
          persistent: true,
          contentType: 'application/json',
        });
        if (!sent) await new Promise((resolve) => channel.once('drain', resolve));
      }
      await channel.waitForConfirms();
    },

    /** Closes the listener's connection from the broker's side (as a broker restart would); false when there is none. */
    async closeListenerConnection(reason: string) {
      const [connection] = await brokerConnectionsNamed(`conveyor listener ${queue}`);
      if (!connection) return false;
      await rabbitmqctl('close_connection', connection.pid, reason);
      return true;
    },

    /** Every one of the flow's executions (pages of 100): status, and when created and finished (epoch ms). */
    async allExecutions() {
      const all: { status: string; createdAt: number; finishedAt: number | null }[] = [];
      for (let page = 1; ; page++) {
        const res = await api('GET', `/executions?flowId=${flowId}&perPage=100&page=${page}`);
        all.push(...res.data);
        if (page >= res.meta.totalPages) return all;
      }
    },

    /** The table's rows, distinct message ids and distinct values of n. */
    rows: () =>
      withMariaDb(async (db) => {
        const [[counts]] = (await db.query(
          `SELECT COUNT(*) AS total, COUNT(DISTINCT message_id) AS ids, COUNT(DISTINCT n) AS ns FROM ${table}`,
        )) as unknown as [[{ total: number; ids: number; ns: number }]];
        return { total: Number(counts.total), ids: Number(counts.ids), ns: Number(counts.ns) };
      }),

    /** The queue as the broker counts it: ready, unacknowledged, and its consumers. */
    async queueState() {
      const counts = await queueCounts(queue);
      const { messageCount, consumerCount } = await channel.checkQueue(queue);
      return { ready: messageCount, unacknowledged: counts?.unacknowledged ?? Number.NaN, consumers: consumerCount };
    },

    /** Unpublishes the flow (its subscription closes), deletes the queue and drops the table. */
    async close() {
      await api('PATCH', `/flows/${flowId}/status`, { active: false }).catch(() => {});
      await channel.deleteQueue(queue).catch(() => {});
      await broker.close().catch(() => {});
      await withMariaDb((db) => db.query(`DROP TABLE IF EXISTS ${table}`));
    },
  };
};

export type Pipeline = Awaited<ReturnType<typeof openPipeline>>;
