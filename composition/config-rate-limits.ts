import * as v from 'valibot';
import { DEFAULT_RATE_LIMITS, type RateLimit, type RateLimits } from '../core/domain/rate-limits.js';

const WINDOW_UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;
const RATE_LIMIT_TEXT = /^(\d{1,7})\s*\/\s*(\d{1,5})\s*([smh])$/;

/** An attempt budget as `<attempts>/<window>`, the window in seconds, minutes or hours: `10/15m`. */
const rateLimit = v.pipe(
  v.string(),
  v.trim(),
  v.regex(RATE_LIMIT_TEXT, 'must be attempts/window, such as 10/15m (window in s, m or h).'),
  v.transform((text): RateLimit => {
    const [, limit = '', amount = '', unit = 's'] = RATE_LIMIT_TEXT.exec(text) ?? [];
    return { limit: Number(limit), windowMs: Number(amount) * WINDOW_UNIT_MS[unit as keyof typeof WINDOW_UNIT_MS] };
  }),
  v.check((rule) => rule.limit >= 1, 'must allow at least 1 attempt.'),
  v.check((rule) => rule.windowMs >= 1000 && rule.windowMs <= 7 * 24 * 3_600_000, 'must have a window of 1s to 168h.'),
);

/** The environment variables that set the attempt budgets; an unset one keeps its default. */
export const RATE_LIMIT_VARIABLES = {
  RATE_LIMIT_SIGN_IN: v.optional(rateLimit),
  RATE_LIMIT_SIGN_IN_IP: v.optional(rateLimit),
  RATE_LIMIT_FORGOT_PASSWORD: v.optional(rateLimit),
  RATE_LIMIT_FORGOT_PASSWORD_IP: v.optional(rateLimit),
  RATE_LIMIT_SAML_IP: v.optional(rateLimit),
  RATE_LIMIT_MCP_IP: v.optional(rateLimit),
};

/** The budgets the parsed variables set, the defaults where they set none. */
export const rateLimitsOf = (
  env: Readonly<Partial<Record<keyof typeof RATE_LIMIT_VARIABLES, RateLimit>>>,
): RateLimits => ({
  signIn: env.RATE_LIMIT_SIGN_IN ?? DEFAULT_RATE_LIMITS.signIn,
  signInPerAddress: env.RATE_LIMIT_SIGN_IN_IP ?? DEFAULT_RATE_LIMITS.signInPerAddress,
  forgotPassword: env.RATE_LIMIT_FORGOT_PASSWORD ?? DEFAULT_RATE_LIMITS.forgotPassword,
  forgotPasswordPerAddress: env.RATE_LIMIT_FORGOT_PASSWORD_IP ?? DEFAULT_RATE_LIMITS.forgotPasswordPerAddress,
  samlSignInPerAddress: env.RATE_LIMIT_SAML_IP ?? DEFAULT_RATE_LIMITS.samlSignInPerAddress,
  mcpTokenPerAddress: env.RATE_LIMIT_MCP_IP ?? DEFAULT_RATE_LIMITS.mcpTokenPerAddress,
});
