import { Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendMany, sendNoContent, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { requireEnterprise } from '../middleware/require-enterprise.js';
import { presentRoleWithPermissions } from '../presenters/user.presenter.js';
import { unwrap } from '../respond.js';
import { roleChangesSchema, roleSchema } from '../schemas/administration.schemas.js';
import { idParam, jsonBody } from '../validation.js';

/**
 * Reading roles needs no licence, so that an administrator can pick one when inviting.
 * (Hono's `/x/*` also matches `/x`, so one `use` guards the collection and its members.)
 */
export const roleRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const enterprise = requireEnterprise(deps);
  return new Hono<AppEnv>()
    .use('/admin/roles/*', requireActor(deps), requireAccess(deps)({ to: 'administration' }))
    .use('/admin/permissions/*', requireActor(deps), requireAccess(deps)({ to: 'administration' }))
    .get('/admin/roles', async (c) =>
      sendMany(c, 'Role', unwrap(await useCases.listRoles(c.var.actor)).map(presentRoleWithPermissions)),
    )
    .get('/admin/roles/:roleId', async (c) => {
      const role = unwrap(await useCases.getRole(c.var.actor, idParam(c, 'roleId', 'Role')));
      return sendOne(c, 'Role', presentRoleWithPermissions(role));
    })
    .post('/admin/roles', enterprise, async (c) => {
      const role = unwrap(await useCases.createRole(c.var.actor, await jsonBody(c, roleSchema)));
      return sendOne(c, 'Role', presentRoleWithPermissions(role), 201);
    })
    .patch('/admin/roles/:roleId', enterprise, async (c) => {
      const roleId = idParam(c, 'roleId', 'Role');
      const role = unwrap(await useCases.updateRole(c.var.actor, roleId, await jsonBody(c, roleChangesSchema)));
      return sendOne(c, 'Role', presentRoleWithPermissions(role));
    })
    .delete('/admin/roles/:roleId', enterprise, async (c) => {
      unwrap(await useCases.deleteRole(c.var.actor, idParam(c, 'roleId', 'Role')));
      return sendNoContent(c);
    })
    .get('/admin/permissions/catalog', enterprise, async (c) =>
      sendOne(c, 'Object', unwrap(await useCases.getPermissionCatalog(c.var.actor))),
    );
};
