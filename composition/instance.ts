import type { RequestListener } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { createHttpApp, type HttpApp } from '../adapters/http/app.js';
import { shedWebhooks } from '../adapters/http/webhook-shedding.js';
import { migrateToLatest } from '../adapters/persistence/migrate.js';
import { sealedKeyIds } from '../adapters/persistence/sealed-secrets.js';
import { defaultConsoleDirectory } from '../adapters/web/console-directory.js';
import { staticConsole } from '../adapters/web/static-console.js';
import type { UseCases } from '../core/application/use-cases.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { Logger } from '../ports/logger.js';
import type { Config } from './config.js';
import { buildContainer, type Overrides, resolve } from './container.js';
import { prepareDataDirectory } from './data-directory.js';
import { checkStoredSecrets } from './encryption-key.js';
import { startEngineWorker } from './engine-worker.js';
import { TOKENS } from './tokens.js';

/** One running instance: its HTTP app, its use cases, and how to stop it cleanly. */
export interface Instance {
  readonly app: HttpApp;
  /** The app for a node:http server, with webhook calls refused before the app sees them under overload. */
  readonly listener: RequestListener;
  readonly useCases: UseCases;
  readonly logger: Logger;
  readonly queue: JobQueue;
  close(): Promise<void>;
}

export interface InstanceOptions {
  /** Run the engine's worker in this process too (`npm start`); off for a server-only process. */
  readonly worker?: boolean;
}

export const startInstance = async (
  config: Config,
  overrides: Overrides = {},
  options: InstanceOptions = { worker: true },
): Promise<Instance> => {
  prepareDataDirectory(config);
  const c = buildContainer(config, overrides);
  const database = resolve(c, TOKENS.database);
  try {
    await migrateToLatest(database.db);
    // Fail at start, not at first use, when a key is wrong. After the database answered: a key file
    // is made only for an instance that can start, and never in place of one that sealed its secrets.
    checkStoredSecrets(config, await sealedKeyIds(database.db), () => resolve(c, TOKENS.encryptionKeys));
    resolve(c, TOKENS.secretBox);
    resolve(c, TOKENS.license);
  } catch (error) {
    // An embedding process lives on after a refused start: it keeps no connection of this one.
    await database.close().catch(() => {});
    throw error;
  }
  const logger = resolve(c, TOKENS.logger);
  const useCases = resolve(c, TOKENS.useCases);
  const metrics = resolve(c, TOKENS.metrics);
  const apps = resolve(c, TOKENS.apps);
  const app = createHttpApp({
    useCases,
    health: resolve(c, TOKENS.health),
    logger,
    metrics,
    appIcon: (appKey) => apps.icon(appKey),
    settings: {
      bodyLimitBytes: config.bodyLimitBytes,
      trustedProxies: config.trustedProxies,
      publicUrl: config.webhookUrl,
      webAppUrl: config.webAppUrl,
      corsOrigins: config.corsOrigins,
      metricsToken: config.metricsToken,
    },
    fallback: staticConsole(config.webConsoleDir ?? defaultConsoleDirectory(), {
      sourceMaps: config.nodeEnv !== 'production',
    }),
  });
  const queue = resolve(c, TOKENS.jobQueue);
  const worker = options.worker ? await startEngineWorker(useCases, queue, config, logger) : null;
  return {
    app,
    listener: shedWebhooks(useCases.webhookRefusal, metrics)(getRequestListener(app.fetch, { hostname: config.host })),
    useCases,
    logger,
    queue,
    async close() {
      // Runs in flight finish or are released before the database goes away.
      if (worker) await worker.stop();
      else await queue.stop();
      await apps.close();
      await resolve(c, TOKENS.mailer).drain();
      await database.close();
    },
  };
};
