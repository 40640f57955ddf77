import { type App, HttpError, TemporaryError } from '../sdk/index.js';

/**
 * Google answers some rate limits with 403 rather than 429: Drive, Calendar and Gmail say
 * `rateLimitExceeded` or `userRateLimitExceeded` in `error.errors[].reason`, and newer APIs
 * `RESOURCE_EXHAUSTED` in `error.status`. Those pass with time; every other 403 does not
 * (a missing permission, a daily quota spent: `dailyLimitExceeded`, `quotaExceeded`).
 */
const RATE_LIMITED = /"reason"\s*:\s*"(rateLimitExceeded|userRateLimitExceeded)"|"status"\s*:\s*"RESOURCE_EXHAUSTED"/;

/** The excerpt of a long answer may stop before `errors`: the message says it too ("User Rate Limit Exceeded"). */
const RATE_LIMIT_MESSAGE = /\brate limit exceeded\b/i;

export const isGoogleRateLimit = (error: unknown): error is HttpError =>
  error instanceof HttpError &&
  error.status === 403 &&
  (RATE_LIMITED.test(error.bodyExcerpt) || RATE_LIMIT_MESSAGE.test(error.remoteMessage ?? ''));

const retryingRateLimits =
  <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    try {
      return await run(...args);
    } catch (error) {
      if (!isGoogleRateLimit(error)) throw error;
      // A retryable failure for the engine, which backs off before the next attempt.
      throw new TemporaryError(error.message, { cause: error });
    }
  };

/** The app with Google's 403 rate limits retried like 429s in each of its steps. */
export const withGoogleRateLimits = (app: App): App => ({
  ...app,
  triggers: app.triggers.map((trigger) => ({ ...trigger, run: retryingRateLimits(trigger.run) })),
  actions: app.actions.map((action) => ({ ...action, run: retryingRateLimits(action.run) })),
});
