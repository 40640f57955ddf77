import type pg from 'pg';
import { defineTrigger, text } from '../sdk/index.js';
import { classifyDatabaseError, createClient, postgresAuth } from './connection.js';
import { identifierCheck, quoteIdentifier } from './identifiers.js';
import { listenerApplicationName, notificationOutput } from './notifications.js';

/** How often the open session is asked `SELECT 1`, so that a server gone silent is noticed. */
const HEARTBEAT_MS = 10_000;
/** How long a heartbeat (or LISTEN) may take before the session counts as broken. */
const HEARTBEAT_TIMEOUT_MS = 10_000;
/**
 * Notifications received but not yet emitted. Past the high mark the socket is no longer read, so
 * the server holds the rest in its own queue, until the low mark is reached again.
 */
const QUEUE_HIGH = 100;
const QUEUE_LOW = 10;

/** Why the session ended, without anything from the connection's settings. */
const brokenSession = (reason: string) =>
  new Error(`The PostgreSQL session listening for notifications ended: ${reason}`);

export const newNotification = defineTrigger({
  key: 'newNotification',
  name: 'New notification',
  description:
    'Starts the flow for each NOTIFY on a channel (LISTEN). Notifications sent while the flow is not listening are not kept by PostgreSQL.',
  type: 'listener',
  arguments: {
    channel: text({
      label: 'Channel',
      required: true,
      placeholder: 'orders',
      description: 'Exactly as written (case matters): NOTIFY orders and pg_notify(\'orders\', ...) reach "orders".',
      check: identifierCheck,
    }),
  },
  // NOTIFY cannot be looked at without listening at the moment it is sent: nothing to show.
  run: async () => [],
  async listen(ctx) {
    const { channel } = ctx.parameters;
    const client = await createClient(ctx, postgresAuth.read(ctx.auth), {
      keepAlive: true,
      query_timeout: HEARTBEAT_TIMEOUT_MS,
      application_name: listenerApplicationName(channel),
    });
    const queue: pg.Notification[] = [];
    let failure: Error | null = null;
    let paused = false;
    let wake = () => {};
    const stream = () => (client as unknown as { connection?: { stream?: NodeJS.ReadableStream } }).connection?.stream;
    const fail = (error: Error) => {
      failure ??= error;
      wake();
    };
    client.on('error', (error) => fail(brokenSession(error.message)));
    client.on('end', () => fail(brokenSession('the connection closed.')));
    client.on('notification', (notification) => {
      queue.push(notification);
      if (queue.length >= QUEUE_HIGH && !paused) {
        paused = true;
        stream()?.pause();
      }
      wake();
    });
    const onAbort = () => wake();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    let heartbeat: NodeJS.Timeout | undefined;
    try {
      try {
        await client.connect();
        await client.query(`LISTEN ${quoteIdentifier(channel)}`);
      } catch (error) {
        throw classifyDatabaseError(error);
      }
      ctx.subscribed();
      heartbeat = setInterval(() => {
        // While the socket is paused the answer cannot be read; TCP keepalive watches it then.
        if (!paused) client.query('SELECT 1').catch((error: Error) => fail(brokenSession(error.message)));
      }, HEARTBEAT_MS);
      while (!ctx.signal.aborted) {
        const next = queue.shift();
        if (next === undefined) {
          // What was received before the session broke is handed on first.
          if (failure) throw failure;
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          continue;
        }
        if (paused && queue.length <= QUEUE_LOW) {
          paused = false;
          stream()?.resume();
        }
        try {
          await ctx.emit({ data: notificationOutput(next) });
        } catch (error) {
          // NOTIFY has no acknowledgement and no redelivery: a refused notification is lost.
          ctx.log.warn({ channel, reason: (error as Error).message }, 'postgresql notification not accepted');
        }
      }
    } finally {
      clearInterval(heartbeat);
      ctx.signal.removeEventListener('abort', onAbort);
      await client.end().catch(() => {});
    }
  },
});
