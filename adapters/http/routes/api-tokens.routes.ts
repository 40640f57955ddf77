import { Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendMany, sendNoContent, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { requireEnterprise } from '../middleware/require-enterprise.js';
import { presentApiToken, presentCreatedApiToken } from '../presenters/administration.presenter.js';
import { unwrap } from '../respond.js';
import { idParam } from '../validation.js';

export const apiTokenRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  return new Hono<AppEnv>()
    .use(
      '/admin/api-tokens/*',
      requireActor(deps),
      requireEnterprise(deps),
      requireAccess(deps)({ to: 'administration' }),
    )
    .post('/admin/api-tokens', async (c) => {
      const created = unwrap(await useCases.createApiToken(c.var.actor));
      return sendOne(c, 'ApiToken', presentCreatedApiToken(created), 201);
    })
    .get('/admin/api-tokens', async (c) =>
      sendMany(c, 'ApiToken', unwrap(await useCases.listApiTokens(c.var.actor)).map(presentApiToken)),
    )
    .delete('/admin/api-tokens/:apiTokenId', async (c) => {
      unwrap(await useCases.deleteApiToken(c.var.actor, idParam(c, 'apiTokenId', 'ApiToken')));
      return sendNoContent(c);
    });
};
