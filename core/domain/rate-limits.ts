/**
 * Attempt budgets for the credential endpoints. Each is counted in a fixed window per key, and
 * every attempt counts (a success too), so a guessing script is slowed whatever it guesses.
 */
export interface RateLimit {
  readonly limit: number;
  readonly windowMs: number;
}

const MINUTE = 60_000;

export const RATE_LIMITS = {
  signInPerAccount: { limit: 10, windowMs: 15 * MINUTE },
  signInPerAddress: { limit: 100, windowMs: 15 * MINUTE },
  forgotPasswordPerAccount: { limit: 5, windowMs: 60 * MINUTE },
  forgotPasswordPerAddress: { limit: 30, windowMs: 60 * MINUTE },
} as const satisfies Record<string, RateLimit>;
