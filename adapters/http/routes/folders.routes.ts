import { type Context, Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendMany, sendNoContent, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { presentFolder } from '../presenters/flow.presenter.js';
import { unwrap } from '../respond.js';
import { folderSchema } from '../schemas/flows.schemas.js';
import { idParam, jsonBody } from '../validation.js';

/** The caller's own folders of flows. */
export const folderRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const id = (c: Context) => idParam(c, 'folderId', 'Folder');
  return new Hono<AppEnv>()
    .use('/folders/*', requireActor(deps))
    .get('/folders', async (c) =>
      sendMany(c, 'Folder', unwrap(await useCases.listFolders(c.var.actor)).map(presentFolder)),
    )
    .post('/folders', requireAccess(deps)({ to: 'permission', action: 'manage', subject: 'Flow' }), async (c) => {
      const folder = unwrap(await useCases.createFolder(c.var.actor, await jsonBody(c, folderSchema)));
      return sendOne(c, 'Folder', presentFolder(folder), 201);
    })
    .patch(
      '/folders/:folderId',
      requireAccess(deps)((c) => ({ to: 'folder', id: id(c) })),
      async (c) => {
        const folderId = id(c);
        const folder = unwrap(await useCases.updateFolder(c.var.actor, folderId, await jsonBody(c, folderSchema)));
        return sendOne(c, 'Folder', presentFolder(folder));
      },
    )
    .delete('/folders/:folderId', async (c) => {
      unwrap(await useCases.deleteFolder(c.var.actor, id(c)));
      return sendNoContent(c);
    });
};
