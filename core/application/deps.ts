import type { AppCatalog } from '../../ports/app-catalog.js';
import type { PaymentProvider } from '../../ports/billing.js';
import type { Clock } from '../../ports/clock.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { JobQueue } from '../../ports/job-queue.js';
import type { LicenseSource } from '../../ports/license.js';
import type { Logger } from '../../ports/logger.js';
import type { Mailer } from '../../ports/mailer.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import type { Repositories } from '../../ports/repositories.js';
import type { SamlGateway } from '../../ports/saml.js';
import type { SecretTokens } from '../../ports/secret-tokens.js';
import type { StepRunner } from '../../ports/step-runner.js';
import type { UnitOfWork } from '../../ports/unit-of-work.js';
import type { Plan } from '../domain/billing.js';
import type { EngineSettings } from '../engine/settings.js';

/** Billing by a payment provider: what users may buy, and what they have without buying. */
export interface BillingSettings {
  /** Keyed by the provider's price id. */
  readonly plans: readonly Plan[];
  /** The plan of a user without a subscription that grants one. */
  readonly freePlan: Plan;
}

/** Plain settings the core needs from configuration; the core never reads the environment. */
export interface CoreSettings {
  /** Base of links put in e-mails, without a trailing slash. */
  readonly webAppUrl: string;
  readonly accessTokenTtlMs: number;
  readonly docsUrl: string | null;
  readonly engine: EngineSettings;
  /** Null: billing is off, every user has the unlimited self-hosted plan. */
  readonly billing: BillingSettings | null;
}

/** Everything a use case may depend on. Each use case picks the few it needs. */
export interface CoreDeps {
  readonly repos: Repositories;
  readonly uow: UnitOfWork;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly passwords: PasswordHasher;
  readonly secrets: SecretTokens;
  readonly mailer: Mailer;
  readonly rateLimiter: RateLimiter;
  readonly logger: Logger;
  readonly license: LicenseSource;
  readonly apps: AppCatalog;
  /** Runs apps' triggers and actions for the engine. */
  readonly runner: StepRunner;
  readonly queue: JobQueue;
  /** Speaks SAML with identity providers. */
  readonly saml: SamlGateway;
  /** Reads the payment provider's signed webhooks (used only when billing is on). */
  readonly payments: PaymentProvider;
  /** In [0, 1): retry jitter. */
  readonly random: () => number;
  readonly settings: CoreSettings;
}
