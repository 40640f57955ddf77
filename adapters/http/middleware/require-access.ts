import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Access } from '../../../core/application/access/check-access.js';
import type { Actor } from '../../../core/domain/actor.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { unwrap } from '../respond.js';

/**
 * Refuses a caller who may not send the request (401, 403, or 404 for a resource they cannot read)
 * before the route reads its body or query: the reading helpers of `validation.ts` insist on it
 * for a signed-in caller. `access` may read the path, e.g. for a resource's id.
 */
export const requireAccess =
  ({ useCases }: Pick<HttpDeps, 'useCases'>) =>
  (access: Access | ((c: Context<AppEnv>) => Access)) =>
    createMiddleware<AppEnv>(async (c, next) => {
      const actor = (c.get('actor') as Actor | undefined) ?? null;
      unwrap(await useCases.checkAccess(actor, typeof access === 'function' ? access(c) : access));
      c.set('accessChecked', true);
      await next();
    });
