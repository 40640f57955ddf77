import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { PresentedCredential } from '../../../core/application/auth/authenticate.js';
import type { Actor } from '../../../core/domain/actor.js';
import { unauthenticated } from '../../../core/domain/errors.js';
import { consoleSessionToken } from '../console-session.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { fail } from '../failures.js';

/** `Authorization: Bearer <token>`, or the bare token as older clients send it. */
const presentedToken = (header: string | undefined): string | null => {
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return (match?.[1] ?? header).trim() || null;
};

/**
 * The one credential a request presents: an API token, else a bearer token, else the console's
 * session cookie (with the console's header). A credential sent is the credential: a wrong one is
 * never made up for by another.
 */
const presentedCredential = (c: Context): PresentedCredential | null => {
  const apiToken = c.req.header('x-api-token')?.trim();
  if (apiToken) return { kind: 'api-token', token: apiToken };
  const bearer = presentedToken(c.req.header('authorization'));
  if (bearer) return { kind: 'access-token', token: bearer };
  const session = consoleSessionToken(c);
  return session ? { kind: 'access-token', token: session } : null;
};

/** Who the request speaks for, or null when it presents no credential that works. */
export const actorOf = async ({ useCases }: Pick<HttpDeps, 'useCases'>, c: Context): Promise<Actor | null> => {
  const credential = presentedCredential(c);
  return credential ? useCases.authenticate(credential) : null;
};

export const requireActor = (deps: Pick<HttpDeps, 'useCases'>) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const actor = await actorOf(deps, c);
    if (!actor) return fail(unauthenticated());
    c.set('actor', actor);
    await next();
  });
