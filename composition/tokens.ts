import type { InProcessAppCatalog } from '../adapters/apps/app-catalog.js';
import type { BackgroundMailer } from '../adapters/mail/background-mailer.js';
import type { DatabaseHandle } from '../adapters/persistence/open-database.js';
import type { UseCases } from '../core/application/use-cases.js';
import type { Clock } from '../ports/clock.js';
import type { HealthProbe } from '../ports/health.js';
import type { IdGenerator } from '../ports/ids.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { LicenseSource } from '../ports/license.js';
import type { Logger } from '../ports/logger.js';
import type { Metrics } from '../ports/metrics.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import type { Repositories } from '../ports/repositories.js';
import type { SamlGateway } from '../ports/saml.js';
import type { SecretBox } from '../ports/secret-box.js';
import type { SecretTokens } from '../ports/secret-tokens.js';
import type { StepRunner } from '../ports/step-runner.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { Config } from './config.js';

/** A registration key that remembers the type registered under it. */
export type Token<T> = symbol & { readonly __type?: T };
const token = <T>(name: string) => Symbol(name) as Token<T>;

export const TOKENS = {
  config: token<Config>('Config'),
  encryptionKeys: token<Uint8Array[]>('EncryptionKeys'),
  secretBox: token<SecretBox>('SecretBox'),
  logger: token<Logger>('Logger'),
  database: token<DatabaseHandle>('Database'),
  clock: token<Clock>('Clock'),
  ids: token<IdGenerator>('IdGenerator'),
  passwords: token<PasswordHasher>('PasswordHasher'),
  secrets: token<SecretTokens>('SecretTokens'),
  mailer: token<BackgroundMailer>('Mailer'),
  rateLimiter: token<RateLimiter>('RateLimiter'),
  repositories: token<Repositories>('Repositories'),
  unitOfWork: token<UnitOfWork>('UnitOfWork'),
  health: token<HealthProbe>('HealthProbe'),
  jobQueue: token<JobQueue>('JobQueue'),
  metrics: token<Metrics>('Metrics'),
  license: token<LicenseSource>('LicenseSource'),
  apps: token<InProcessAppCatalog>('AppCatalog'),
  runner: token<StepRunner>('StepRunner'),
  saml: token<SamlGateway>('SamlGateway'),
  useCases: token<UseCases>('UseCases'),
} as const;
