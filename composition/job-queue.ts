import type { DatabaseHandle } from '../adapters/persistence/open-database.js';
import { createLocalJobQueue } from '../adapters/queue/local/local-job-queue.js';
import { createPgBossJobQueue } from '../adapters/queue/pg-boss/pg-boss-job-queue.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { Logger } from '../ports/logger.js';
import type { Config } from './config.js';

/**
 * The local queue on SQLite (one process, nothing else to run); pg-boss on Postgres unless
 * QUEUE=local, for any number of worker processes. Both keep their schedules in the
 * application database, so the queue takes the same database handle as the repositories.
 */
export const createJobQueue = (config: Config, database: DatabaseHandle, logger: Logger): JobQueue => {
  const common = {
    db: database.db,
    logger,
    maxAttempts: config.queueMaxAttempts,
    pollIntervalMs: config.queuePollIntervalMs,
    stopTimeoutMs: config.shutdownTimeoutMs,
    ...(config.queueLeaseMs === null ? {} : { leaseMs: config.queueLeaseMs }),
  };
  if (config.queue === 'local') return createLocalJobQueue(common);
  return createPgBossJobQueue({
    ...common,
    connectionString: config.databaseUrl,
    schema: config.queuePgBossSchema,
    poolSize: config.databasePoolSize,
  });
};
