import { Hono } from 'hono';
import { clientAddress } from '../client-address.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendMany, sendNoContent, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { presentUser } from '../presenters/user.presenter.js';
import { unwrap } from '../respond.js';
import {
  changePasswordSchema,
  forgotPasswordSchema,
  registerSchema,
  resetPasswordSchema,
  updateProfileSchema,
} from '../schemas/accounts.schemas.js';
import { acceptInvitationSchema } from '../schemas/administration.schemas.js';
import { idParam, jsonBody } from '../validation.js';

export const userRoutes = (deps: HttpDeps) => {
  const { useCases, settings } = deps;
  const authenticated = requireActor(deps);
  const ownAccount = requireAccess(deps)((c) => ({ to: 'own-account', userId: idParam(c, 'userId', 'User') }));
  return new Hono<AppEnv>()
    .post('/users', async (c) => {
      const user = unwrap(await useCases.registerUser(await jsonBody(c, registerSchema)));
      return sendOne(c, 'User', presentUser(user), 201);
    })
    .post('/users/forgot-password', async (c) => {
      const { email } = await jsonBody(c, forgotPasswordSchema);
      unwrap(await useCases.forgotPassword({ email, clientAddress: clientAddress(c, settings.trustedProxies) }));
      return sendNoContent(c);
    })
    .post('/users/reset-password', async (c) => {
      unwrap(await useCases.resetPassword(await jsonBody(c, resetPasswordSchema)));
      return sendNoContent(c);
    })
    .post('/users/invitation', async (c) => {
      unwrap(await useCases.acceptInvitation(await jsonBody(c, acceptInvitationSchema)));
      return sendNoContent(c);
    })
    .get('/users/me', authenticated, async (c) => {
      return sendOne(c, 'User', presentUser(unwrap(await useCases.getCurrentUser(c.var.actor))));
    })
    .get('/users/:userId/apps', authenticated, async (c) => {
      const apps = unwrap(await useCases.listUserApps(c.var.actor, idParam(c, 'userId', 'User')));
      return sendMany(c, 'App', apps);
    })
    .patch('/users/:userId', authenticated, ownAccount, async (c) => {
      const userId = idParam(c, 'userId', 'User');
      const changes = await jsonBody(c, updateProfileSchema);
      const user = unwrap(await useCases.updateOwnProfile(c.var.actor, { userId, ...changes }));
      return sendOne(c, 'User', presentUser(user));
    })
    .patch('/users/:userId/password', authenticated, ownAccount, async (c) => {
      const userId = idParam(c, 'userId', 'User');
      const input = await jsonBody(c, changePasswordSchema);
      const user = unwrap(await useCases.changeOwnPassword(c.var.actor, { userId, ...input }));
      return sendOne(c, 'User', presentUser(user));
    })
    .delete('/users/:userId', authenticated, async (c) => {
      unwrap(await useCases.deleteOwnAccount(c.var.actor, idParam(c, 'userId', 'User')));
      return sendNoContent(c);
    });
};
