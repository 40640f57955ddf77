import { Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendMany, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { requireEnterprise } from '../middleware/require-enterprise.js';
import {
  presentApp,
  presentAppConfig,
  presentAuth,
  presentConnection,
  presentOAuthClient,
  presentStep,
} from '../presenters/app.presenter.js';
import { unwrap } from '../respond.js';
import { appListQuery, connectionSchema } from '../schemas/apps.schemas.js';
import { idParam, jsonBody, queryInput } from '../validation.js';
import { flowsUsing } from './flows.routes.js';

/** The app catalog, and what the caller holds for each app. */
export const appRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const enterprise = requireEnterprise(deps);
  const app = (key: string) => unwrap(useCases.getApp(key));
  const may = requireAccess(deps);
  return new Hono<AppEnv>()
    .use('/apps/*', requireActor(deps))
    .get('/apps', may({ to: 'signed-in' }), (c) => {
      const query = queryInput(c, appListQuery);
      const apps = useCases.listApps({
        name: query.name,
        onlyWithTriggers: query.onlyWithTriggers === 'true',
        onlyWithActions: query.onlyWithActions === 'true',
        category: query.category,
        capability: query.capability,
      });
      return sendMany(c, 'App', apps.map(presentApp));
    })
    .get('/apps/:appKey', (c) => sendOne(c, 'App', presentApp(app(c.req.param('appKey')))))
    .get('/apps/:appKey/auth', (c) => sendOne(c, 'Object', presentAuth(app(c.req.param('appKey')))))
    .get('/apps/:appKey/triggers', (c) => sendMany(c, 'Trigger', app(c.req.param('appKey')).triggers.map(presentStep)))
    .get('/apps/:appKey/actions', (c) => sendMany(c, 'Action', app(c.req.param('appKey')).actions.map(presentStep)))
    .get('/apps/:appKey/triggers/:triggerKey/substeps', (c) =>
      sendMany(c, 'Object', unwrap(useCases.triggerSubsteps(c.req.param('appKey'), c.req.param('triggerKey')))),
    )
    .get('/apps/:appKey/actions/:actionKey/substeps', (c) =>
      sendMany(c, 'Object', unwrap(useCases.actionSubsteps(c.req.param('appKey'), c.req.param('actionKey')))),
    )
    .get('/apps/:appKey/connections', async (c) => {
      const connections = unwrap(await useCases.listAppConnections(c.var.actor, c.req.param('appKey')));
      return sendMany(c, 'Connection', connections.map(presentConnection));
    })
    .post(
      '/apps/:appKey/connections',
      may({ to: 'permission', action: 'manage', subject: 'Connection' }),
      async (c) => {
        const input = await jsonBody(c, connectionSchema);
        const connection = unwrap(await useCases.createConnection(c.var.actor, c.req.param('appKey'), input));
        return sendOne(c, 'Connection', presentConnection(connection), 201);
      },
    )
    .get('/apps/:appKey/flows', may({ to: 'permission', action: 'read', subject: 'Flow' }), flowsUsing(deps).app)
    .get('/apps/:appKey/config', enterprise, async (c) =>
      sendOne(c, 'AppConfig', presentAppConfig(unwrap(await useCases.getAppConfig(c.req.param('appKey'))))),
    )
    .get('/apps/:appKey/auth-clients', enterprise, async (c) => {
      const clients = unwrap(await useCases.listActiveOAuthClients(c.req.param('appKey')));
      return sendMany(c, 'OAuthClient', clients.map(presentOAuthClient));
    })
    .get('/apps/:appKey/auth-clients/:appAuthClientId', enterprise, async (c) => {
      const clientId = idParam(c, 'appAuthClientId', 'OAuthClient');
      const client = unwrap(await useCases.getActiveOAuthClient(c.req.param('appKey'), clientId));
      return sendOne(c, 'OAuthClient', presentOAuthClient(client));
    });
};
