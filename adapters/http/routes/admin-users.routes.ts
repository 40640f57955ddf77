import { Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendNoContent, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { pageQuery, sendPage } from '../pagination.js';
import { presentUser } from '../presenters/user.presenter.js';
import { unwrap } from '../respond.js';
import { adminUpdateUserSchema, inviteUserSchema } from '../schemas/administration.schemas.js';
import { idParam, jsonBody } from '../validation.js';

/** User administration. Not an enterprise feature: every instance can manage its users. */
export const adminUserRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  return new Hono<AppEnv>()
    .use('/admin/users/*', requireActor(deps), requireAccess(deps)({ to: 'administration' }))
    .get('/admin/users', async (c) => {
      const page = unwrap(await useCases.listUsers(c.var.actor, pageQuery(c)));
      return sendPage(c, 'User', page, presentUser);
    })
    .post('/admin/users', async (c) => {
      const invitation = unwrap(await useCases.inviteUser(c.var.actor, await jsonBody(c, inviteUserSchema)));
      return sendOne(
        c,
        'User',
        { ...presentUser(invitation.user), acceptInvitationUrl: invitation.acceptInvitationUrl },
        201,
      );
    })
    .get('/admin/users/:userId', async (c) => {
      const user = unwrap(await useCases.getUser(c.var.actor, idParam(c, 'userId', 'User')));
      return sendOne(c, 'User', presentUser(user));
    })
    .patch('/admin/users/:userId', async (c) => {
      const userId = idParam(c, 'userId', 'User');
      const user = unwrap(await useCases.updateUser(c.var.actor, userId, await jsonBody(c, adminUpdateUserSchema)));
      return sendOne(c, 'User', presentUser(user));
    })
    .delete('/admin/users/:userId', async (c) => {
      unwrap(await useCases.deleteUser(c.var.actor, idParam(c, 'userId', 'User')));
      return sendNoContent(c);
    });
};
