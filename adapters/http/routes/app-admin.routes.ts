import { Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendMany, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { requireEnterprise } from '../middleware/require-enterprise.js';
import { presentAppConfig, presentOAuthClient } from '../presenters/app.presenter.js';
import { unwrap } from '../respond.js';
import { appConfigSchema, oauthClientChangesSchema, oauthClientSchema } from '../schemas/apps.schemas.js';
import { idParam, jsonBody } from '../validation.js';

/** Administrators' app settings and OAuth clients: enterprise features. */
export const appAdminRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  return new Hono<AppEnv>()
    .use('/admin/apps/*', requireActor(deps), requireEnterprise(deps), requireAccess(deps)({ to: 'administration' }))
    .post('/admin/apps/:appKey/config', async (c) => {
      const config = unwrap(
        await useCases.createAppConfig(c.var.actor, c.req.param('appKey'), await jsonBody(c, appConfigSchema)),
      );
      return sendOne(c, 'AppConfig', presentAppConfig(config), 201);
    })
    .patch('/admin/apps/:appKey/config', async (c) => {
      const config = unwrap(
        await useCases.updateAppConfig(c.var.actor, c.req.param('appKey'), await jsonBody(c, appConfigSchema)),
      );
      return sendOne(c, 'AppConfig', presentAppConfig(config));
    })
    .get('/admin/apps/:appKey/auth-clients', async (c) => {
      const clients = unwrap(await useCases.listOAuthClients(c.var.actor, c.req.param('appKey')));
      return sendMany(c, 'OAuthClient', clients.map(presentOAuthClient));
    })
    .get('/admin/apps/:appKey/auth-clients/:appAuthClientId', async (c) => {
      const clientId = idParam(c, 'appAuthClientId', 'OAuthClient');
      const client = unwrap(await useCases.getOAuthClient(c.var.actor, c.req.param('appKey'), clientId));
      return sendOne(c, 'OAuthClient', presentOAuthClient(client));
    })
    .post('/admin/apps/:appKey/auth-clients', async (c) => {
      const input = await jsonBody(c, oauthClientSchema);
      const client = unwrap(await useCases.createOAuthClient(c.var.actor, c.req.param('appKey'), input));
      return sendOne(c, 'OAuthClient', presentOAuthClient(client), 201);
    })
    .patch('/admin/apps/:appKey/auth-clients/:appAuthClientId', async (c) => {
      const clientId = idParam(c, 'appAuthClientId', 'OAuthClient');
      const input = await jsonBody(c, oauthClientChangesSchema);
      const client = unwrap(await useCases.updateOAuthClient(c.var.actor, c.req.param('appKey'), clientId, input));
      return sendOne(c, 'OAuthClient', presentOAuthClient(client));
    });
};
