import type { Credentials } from '../../core/domain/app.js';
import type { OAuthClientSettings } from '../../ports/app-catalog.js';
import type { App } from './sdk/index.js';

const MAX_REASON = 500;

/** Secret values a reason must never repeat: secret fields, tokens, the client secret, the code. */
export const secretsOf = (app: App, credentials: Credentials, client: OAuthClientSettings | null): string[] => {
  const { auth } = app.manifest;
  const secretKeys = new Set([
    ...[...auth.fields, ...auth.clientFields].filter((f) => f.secret).map((f) => f.key),
    'password',
    'clientSecret',
    'accessToken',
    'refreshToken',
    'code',
  ]);
  const values = [...Object.entries(credentials), ...Object.entries(client ?? {})]
    .filter(([key, value]) => secretKeys.has(key) && typeof value === 'string' && value.length >= 4)
    .map(([, value]) => value as string);
  return [...new Set(values)];
};

const messageOf = (error: unknown): string => {
  if (!(error instanceof Error)) return typeof error === 'string' ? error : '';
  if (error.message) return error.message;
  // Node reports a refused dual-stack connection as an AggregateError with an empty message.
  if (error instanceof AggregateError) return error.errors.map(messageOf).filter(Boolean).join('; ');
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error.name;
};

/**
 * What the user is told when a check fails: the remote service's words, on one line, shortened,
 * with any secret it might echo masked. Never a stack.
 */
export const failureReason = (error: unknown, secrets: readonly string[]): string => {
  let reason = messageOf(error).split('\n')[0]?.trim() ?? '';
  for (const secret of secrets) reason = reason.split(secret).join('[redacted]');
  if (reason === '') return 'The check failed without a reason.';
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON)}…` : reason;
};
