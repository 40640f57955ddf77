import type { PaymentProvider } from '../../ports/billing.js';
import type { LicenseSource } from '../../ports/license.js';
import type { Mailer } from '../../ports/mailer.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import type { SamlGateway } from '../../ports/saml.js';
import type { SecretTokens } from '../../ports/secret-tokens.js';
import type { Plan } from '../domain/billing.js';
import type { RateLimits } from '../domain/rate-limits.js';
import type { EngineDeps } from '../engine/deps.js';
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
  /** Attempt budgets of sign-in, password reset and single sign-on. */
  readonly rateLimits: RateLimits;
  readonly docsUrl: string | null;
  readonly engine: EngineSettings;
  /** How long an MCP client's call of a flow tool waits for the run before answering with its id. */
  readonly mcpToolTimeoutMs: number;
  /** Null: billing is off, every user has the unlimited self-hosted plan. */
  readonly billing: BillingSettings | null;
}

/** Everything a use case may depend on: the engine's dependencies and more. Each use case picks the few it needs. */
export interface CoreDeps extends EngineDeps {
  readonly passwords: PasswordHasher;
  readonly secrets: SecretTokens;
  readonly mailer: Mailer;
  readonly rateLimiter: RateLimiter;
  readonly license: LicenseSource;
  /** Speaks SAML with identity providers. */
  readonly saml: SamlGateway;
  /** Reads the payment provider's signed webhooks (used only when billing is on). */
  readonly payments: PaymentProvider;
  readonly settings: CoreSettings;
}
