import { type Context, Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendNoContent, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { presentConnection } from '../presenters/app.presenter.js';
import { unwrap } from '../respond.js';
import { connectionSchema } from '../schemas/apps.schemas.js';
import { idParam, jsonBody } from '../validation.js';
import { flowsUsing } from './flows.routes.js';

export const connectionRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const id = (c: Context) => idParam(c, 'connectionId', 'Connection');
  const may = requireAccess(deps);
  return new Hono<AppEnv>()
    .use('/connections/*', requireActor(deps))
    .patch(
      '/connections/:connectionId',
      may((c) => ({ to: 'connection', id: id(c), action: 'manage' })),
      async (c) => {
        const connectionId = id(c);
        const input = await jsonBody(c, connectionSchema);
        return sendOne(
          c,
          'Connection',
          presentConnection(unwrap(await useCases.updateConnection(c.var.actor, connectionId, input))),
        );
      },
    )
    .delete('/connections/:connectionId', async (c) => {
      unwrap(await useCases.deleteConnection(c.var.actor, id(c)));
      return sendNoContent(c);
    })
    .post('/connections/:connectionId/verify', async (c) =>
      sendOne(c, 'Connection', presentConnection(unwrap(await useCases.verifyConnection(c.var.actor, id(c))))),
    )
    .post('/connections/:connectionId/test', async (c) =>
      sendOne(c, 'Connection', presentConnection(unwrap(await useCases.testConnection(c.var.actor, id(c))))),
    )
    .post('/connections/:connectionId/reset', async (c) =>
      sendOne(c, 'Connection', presentConnection(unwrap(await useCases.resetConnection(c.var.actor, id(c))))),
    )
    .post('/connections/:connectionId/auth-url', async (c) =>
      sendOne(c, 'Object', unwrap(await useCases.generateAuthUrl(c.var.actor, id(c)))),
    )
    .get(
      '/connections/:connectionId/flows',
      may((c) => ({ to: 'connection', id: id(c), action: 'read' })),
      flowsUsing(deps).connection,
    );
};
