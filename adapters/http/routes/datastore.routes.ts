import { type Context, Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendNoContent } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { pageQuery, sendPage } from '../pagination.js';
import { presentDatastoreEntry } from '../presenters/datastore.presenter.js';
import { unwrap } from '../respond.js';
import { datastoreListQuery } from '../schemas/datastore.schemas.js';
import { idParam, queryInput } from '../validation.js';

/** The values the datastore app keeps for a flow: listed with the flow's read, deleted with its manage. */
export const datastoreRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const id = (c: Context) => idParam(c, 'flowId', 'Flow');
  const may = requireAccess(deps);
  return new Hono<AppEnv>()
    .use('/flows/:flowId/datastore', requireActor(deps))
    .use('/flows/:flowId/datastore/*', requireActor(deps))
    .get(
      '/flows/:flowId/datastore',
      may((c) => ({ to: 'flow', id: id(c), action: 'read' })),
      async (c) => {
        const flowId = id(c);
        const { q } = queryInput(c, datastoreListQuery);
        const page = unwrap(await useCases.flowDatastore.list(c.var.actor, flowId, { q }, pageQuery(c)));
        return sendPage(c, 'DatastoreEntry', page, presentDatastoreEntry);
      },
    )
    .delete(
      '/flows/:flowId/datastore/:key',
      may((c) => ({ to: 'flow', id: id(c), action: 'manage' })),
      async (c) => {
        unwrap(await useCases.flowDatastore.delete(c.var.actor, id(c), c.req.param('key')));
        return sendNoContent(c);
      },
    );
};
