import { createMiddleware } from 'hono/factory';
import { unauthenticated } from '../../../core/domain/errors.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { fail } from '../failures.js';

/** `Authorization: Bearer <token>`, or the bare token as older clients send it. */
const presentedToken = (header: string | undefined): string | null => {
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return (match?.[1] ?? header).trim() || null;
};

export const requireActor = ({ useCases }: Pick<HttpDeps, 'useCases'>) =>
  createMiddleware<AppEnv>(async (c, next) => {
    // An API token, when sent, is the credential; it is never mixed with a session token.
    const apiToken = c.req.header('x-api-token')?.trim();
    const token = apiToken || presentedToken(c.req.header('authorization'));
    const actor = token ? await useCases.authenticate({ kind: apiToken ? 'api-token' : 'access-token', token }) : null;
    if (!actor) return fail(unauthenticated());
    c.set('actor', actor);
    await next();
  });
