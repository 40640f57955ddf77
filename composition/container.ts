import 'reflect-metadata';
import { join } from 'node:path';
import { type DependencyContainer, instanceCachingFactory, container as root } from 'tsyringe';
import { createAppCatalog } from '../adapters/apps/app-catalog.js';
import { type App, builtInAppsWith } from '../adapters/apps/index.js';
import { createStepRunner } from '../adapters/apps/step-runner.js';
import { createArgon2PasswordHasher } from '../adapters/auth/argon2-password-hasher.js';
import { createLicenseSource } from '../adapters/auth/license.js';
import { createSecretBox } from '../adapters/auth/secret-box.js';
import { createSecretTokens } from '../adapters/auth/secret-tokens.js';
import { systemClock, uuidGenerator } from '../adapters/auth/system.js';
import { createPaddleWebhooks } from '../adapters/billing/paddle-webhooks.js';
import { createPinoLogger } from '../adapters/logging/pino-logger.js';
import { createBackgroundMailer } from '../adapters/mail/background-mailer.js';
import { createOutboxMailer } from '../adapters/mail/outbox-mailer.js';
import { createSmtpMailer } from '../adapters/mail/smtp-mailer.js';
import { measuredJobQueue } from '../adapters/metrics/measured-job-queue.js';
import { createPrometheusMetrics } from '../adapters/metrics/prometheus-metrics.js';
import { createHealthProbe } from '../adapters/persistence/health-probe.js';
import { openDatabase } from '../adapters/persistence/open-database.js';
import { createDatabaseRateLimiter } from '../adapters/persistence/rate-limiter.js';
import { createRepositories } from '../adapters/persistence/repositories/index.js';
import { createUnitOfWork } from '../adapters/persistence/unit-of-work.js';
import { createNodeSamlGateway } from '../adapters/saml/node-saml-gateway.js';
import { buildUseCases } from '../core/application/use-cases.js';
import { DEFAULT_STEP_BACKOFF } from '../core/domain/backoff.js';
import { EXECUTION_JOB, FLOW_TRIGGER_JOB } from '../core/engine/jobs.js';
import type { Clock } from '../ports/clock.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { Logger } from '../ports/logger.js';
import type { Mailer } from '../ports/mailer.js';
import type { RunObserver } from '../ports/run-observer.js';
import type { Config } from './config.js';
import { resolveEncryptionKeys } from './encryption-key.js';
import { createJobQueue } from './job-queue.js';
import { TOKENS, type Token } from './tokens.js';

/** Replacements a caller (a test, an embedding application) may plug in instead of the defaults. */
export interface Overrides {
  readonly logger?: Logger;
  readonly clock?: Clock;
  /** The transport behind the background queue, e.g. a capturing mailer. */
  readonly mailTransport?: Mailer;
  /** The integrations offered, instead of the built-in ones (an embedder's own, a test's). */
  readonly apps?: readonly App[];
  /** The job queue, instead of the one the database URL selects. */
  readonly queue?: JobQueue;
  /** Told of each run's end in this process (the library's execution events). */
  readonly runObserver?: RunObserver;
}

export const resolve = <T>(c: DependencyContainer, key: Token<T>): T => c.resolve<T>(key);

const provide = <T>(c: DependencyContainer, key: Token<T>, factory: (c: DependencyContainer) => T) =>
  c.register<T>(key, { useFactory: instanceCachingFactory<T>(factory) });

const mailTransport = (config: Config, logger: Logger): Mailer => {
  if (config.smtpUrl) return createSmtpMailer(config.smtpUrl, config.mailFrom);
  return createOutboxMailer(join(config.dataDirectory, 'outbox'), logger);
};

/** Every object of one Conveyor instance, built lazily and once, in its own child container. */
export const buildContainer = (config: Config, overrides: Overrides = {}): DependencyContainer => {
  const c = root.createChildContainer();
  c.register(TOKENS.config, { useValue: config });
  provide(c, TOKENS.logger, () => overrides.logger ?? createPinoLogger(config.logLevel));
  provide(c, TOKENS.encryptionKeys, () => resolveEncryptionKeys(config));
  provide(c, TOKENS.secretBox, (c) => createSecretBox(resolve(c, TOKENS.encryptionKeys)));
  provide(c, TOKENS.database, (c) =>
    openDatabase(config.databaseUrl, resolve(c, TOKENS.logger), {
      poolSize: config.databasePoolSize,
      poolTimeoutMs: config.databasePoolTimeoutMs,
      sqliteSynchronous: config.sqliteSynchronous,
    }),
  );
  provide(c, TOKENS.clock, () => overrides.clock ?? systemClock);
  provide(c, TOKENS.ids, () => uuidGenerator);
  provide(c, TOKENS.passwords, () => createArgon2PasswordHasher());
  provide(c, TOKENS.secrets, () => createSecretTokens());
  provide(c, TOKENS.mailer, (c) => {
    const logger = resolve(c, TOKENS.logger);
    return createBackgroundMailer(overrides.mailTransport ?? mailTransport(config, logger), logger);
  });
  provide(c, TOKENS.rateLimiter, (c) =>
    createDatabaseRateLimiter(resolve(c, TOKENS.database), resolve(c, TOKENS.clock)),
  );
  provide(c, TOKENS.repositories, (c) =>
    createRepositories({ ...resolve(c, TOKENS.database), secretBox: resolve(c, TOKENS.secretBox) }),
  );
  provide(c, TOKENS.unitOfWork, (c) => createUnitOfWork(resolve(c, TOKENS.database), resolve(c, TOKENS.secretBox)));
  provide(c, TOKENS.health, (c) => createHealthProbe(resolve(c, TOKENS.database)));
  // Connects (pg-boss) or starts workers only when first used; Conveyor.close() stops it.
  provide(c, TOKENS.jobQueue, (c) =>
    measuredJobQueue(
      overrides.queue ?? createJobQueue(config, resolve(c, TOKENS.database), resolve(c, TOKENS.logger)),
      resolve(c, TOKENS.metrics),
    ),
  );
  // Read at scrape time, so the queue (which reports to the metrics) is built first without a cycle.
  provide(c, TOKENS.metrics, (c) =>
    createPrometheusMetrics(
      {
        queueDepth: () => resolve(c, TOKENS.jobQueue).depth(),
        executionsByStatus: () => resolve(c, TOKENS.repositories).executions.countByStatus(),
        databaseCounts: () => resolve(c, TOKENS.database).counts,
      },
      resolve(c, TOKENS.logger),
      { queues: [EXECUTION_JOB, FLOW_TRIGGER_JOB] },
    ),
  );
  provide(c, TOKENS.license, (c) =>
    createLicenseSource({
      licenseKey: config.licenseKey,
      publicKey: config.licensePublicKey,
      logger: resolve(c, TOKENS.logger),
    }),
  );
  const apps =
    overrides.apps ??
    builtInAppsWith({
      codeWorkers: config.codeWorkers,
      codeWorkersPerFlow: config.codeWorkersPerFlow,
      mcpStdioAllowed: config.mcpStdioAllowed,
    });
  provide(c, TOKENS.apps, (c) =>
    createAppCatalog({
      apps,
      allowPrivateNetworks: config.allowPrivateNetworks,
      logger: resolve(c, TOKENS.logger),
      appAddresses: config.appAddresses,
    }),
  );
  provide(c, TOKENS.runner, (c) => createStepRunner(resolve(c, TOKENS.apps), apps));
  // SAML endpoints are reached where webhooks are: at the server's public address.
  provide(c, TOKENS.saml, () => createNodeSamlGateway({ publicUrl: config.webhookUrl }));
  provide(c, TOKENS.useCases, (c) =>
    buildUseCases({
      repos: resolve(c, TOKENS.repositories),
      uow: resolve(c, TOKENS.unitOfWork),
      clock: resolve(c, TOKENS.clock),
      ids: resolve(c, TOKENS.ids),
      passwords: resolve(c, TOKENS.passwords),
      secrets: resolve(c, TOKENS.secrets),
      mailer: resolve(c, TOKENS.mailer),
      rateLimiter: resolve(c, TOKENS.rateLimiter),
      logger: resolve(c, TOKENS.logger),
      license: resolve(c, TOKENS.license),
      apps: resolve(c, TOKENS.apps),
      runner: resolve(c, TOKENS.runner),
      queue: resolve(c, TOKENS.jobQueue),
      saml: resolve(c, TOKENS.saml),
      payments: createPaddleWebhooks({
        secret: config.billing?.webhookSecret ?? '',
        toleranceMs: config.billing?.webhookToleranceMs ?? 0,
      }),
      random: Math.random,
      runObserver: overrides.runObserver,
      settings: {
        webAppUrl: config.webAppUrl,
        accessTokenTtlMs: config.accessTokenTtlMs,
        rateLimits: config.rateLimits,
        docsUrl: config.docsUrl,
        mcpToolTimeoutMs: config.mcpToolTimeoutMs,
        engine: {
          leaseMs: config.executionLeaseMs,
          unclaimedAfterMs: 2 * config.executionLeaseMs,
          backoff: DEFAULT_STEP_BACKOFF,
          syncTimeoutMs: config.syncWebhookTimeoutMs,
          testEventMaxWaitMs: config.testEventMaxWaitMs,
          intake: config.webhookIntake,
          publicUrl: config.webhookUrl,
          loopItemsMax: config.loopItemsMax,
          listenerMaxBacklog: config.listenerMaxBacklog,
          callDepthMax: config.callDepthMax,
        },
        billing: config.billing && { plans: config.billing.plans, freePlan: config.billing.freePlan },
      },
    }),
  );
  return c;
};
