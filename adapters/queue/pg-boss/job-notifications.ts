import pg from 'pg';
import { errorMessage } from '../../../core/domain/errors.js';
import type { Logger } from '../../../ports/logger.js';

const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30_000;

/**
 * Tells workers in other processes that a job was sent, with Postgres's NOTIFY on a channel of
 * the pg-boss schema, so that they need not wait for their next poll. A worker process listens on
 * one connection of its own and reconnects after losing it; until then, and should a
 * notification be lost, polling still finds every job.
 */
export const createJobNotifications = (options: {
  readonly connectionString: string;
  readonly schema: string;
  readonly logger: Logger;
}) => {
  // The schema is a checked lower-case name, so the channel is a plain identifier.
  const channel = `conveyor_jobs_${options.schema}`;
  const { logger } = options;
  let client: pg.Client | null = null;
  let closed = false;
  let retryMs = FIRST_RETRY_MS;
  let retry: NodeJS.Timeout | null = null;

  const connect = async (onSent: (name: string) => void): Promise<void> => {
    const listener = new pg.Client({ connectionString: options.connectionString, application_name: 'conveyor-listen' });
    const lost = () => {
      if (client !== listener) return;
      client = null;
      listener.end().catch(() => {});
      reconnect(onSent);
    };
    listener.on('error', (error) => {
      logger.warn({ err: error.message }, 'the job notification connection failed; reconnecting');
      lost();
    });
    listener.on('end', lost);
    listener.on('notification', (message) => {
      if (message.channel === channel && message.payload) onSent(message.payload);
    });
    client = listener;
    try {
      await listener.connect();
      await listener.query(`listen "${channel}"`);
      retryMs = FIRST_RETRY_MS;
    } catch (error) {
      logger.warn({ err: errorMessage(error) }, 'could not listen for job notifications; workers poll meanwhile');
      lost();
    }
  };

  const reconnect = (onSent: (name: string) => void) => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void connect(onSent);
    }, retryMs);
    retry.unref();
    retryMs = Math.min(LAST_RETRY_MS, retryMs * 2);
  };

  return {
    channel,
    listen: (onSent: (name: string) => void) => connect(onSent),
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const listener = client;
      client = null;
      await listener?.end().catch(() => {});
    },
  };
};
