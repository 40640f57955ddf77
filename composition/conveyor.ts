import { createHttpApp, type HttpApp } from '../adapters/http/app.js';
import { migrateToLatest } from '../adapters/persistence/migrate.js';
import type { UseCases } from '../core/application/use-cases.js';
import type { Logger } from '../ports/logger.js';
import type { Config } from './config.js';
import { buildContainer, type Overrides, resolve } from './container.js';
import { TOKENS } from './tokens.js';

/** One running instance: its HTTP app, its use cases, and how to stop it cleanly. */
export interface Conveyor {
  readonly app: HttpApp;
  readonly useCases: UseCases;
  readonly logger: Logger;
  close(): Promise<void>;
}

export const createConveyor = async (config: Config, overrides: Overrides = {}): Promise<Conveyor> => {
  const c = buildContainer(config, overrides);
  // Fail at start, not at first use, when a key is wrong.
  resolve(c, TOKENS.secretBox);
  resolve(c, TOKENS.license);
  const database = resolve(c, TOKENS.database);
  await migrateToLatest(database.db);
  const logger = resolve(c, TOKENS.logger);
  const useCases = resolve(c, TOKENS.useCases);
  const app = createHttpApp({
    useCases,
    health: resolve(c, TOKENS.health),
    logger,
    settings: {
      bodyLimitBytes: config.bodyLimitBytes,
      trustProxy: config.trustProxy,
      webhookBaseUrl: config.webhookUrl,
    },
  });
  return {
    app,
    useCases,
    logger,
    async close() {
      // Running jobs finish (or are released) while the database is still open.
      await resolve(c, TOKENS.jobQueue).stop();
      await resolve(c, TOKENS.mailer).drain();
      await database.close();
    },
  };
};
