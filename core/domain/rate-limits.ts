/** An attempt budget: at most `limit` attempts in a fixed window of `windowMs`, per key. */
export interface RateLimit {
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * The budgets of the endpoints that take credentials or write for anonymous callers. Operators set
 * them (composition/config.ts); the core receives them with its settings.
 */
export interface RateLimits {
  /** Failed sign-ins per account from one client address (a success resets it). */
  readonly signIn: RateLimit;
  /** Failed sign-ins from one client address, whatever the account: password spraying. */
  readonly signInPerAddress: RateLimit;
  /** Reset mails asked for one account, from anywhere. */
  readonly forgotPassword: RateLimit;
  readonly forgotPasswordPerAddress: RateLimit;
  /** SAML sign-in calls (start, IdP answer, logout) from one client address. */
  readonly samlSignInPerAddress: RateLimit;
  /** Requests to the MCP endpoint with a token that opens no server, from one client address. */
  readonly mcpTokenPerAddress: RateLimit;
}

const MINUTE = 60_000;

/** The budgets when the operator sets none. */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  signIn: { limit: 10, windowMs: 15 * MINUTE },
  signInPerAddress: { limit: 100, windowMs: 15 * MINUTE },
  forgotPassword: { limit: 5, windowMs: 60 * MINUTE },
  forgotPasswordPerAddress: { limit: 30, windowMs: 60 * MINUTE },
  samlSignInPerAddress: { limit: 300, windowMs: 15 * MINUTE },
  mcpTokenPerAddress: { limit: 100, windowMs: 15 * MINUTE },
};
