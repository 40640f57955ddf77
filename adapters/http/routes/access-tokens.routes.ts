import { Hono } from 'hono';
import { clientAddress } from '../client-address.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendNoContent, sendOne } from '../envelope.js';
import { requireActor } from '../middleware/require-actor.js';
import { unwrap } from '../respond.js';
import { signInSchema } from '../schemas/accounts.schemas.js';
import { jsonBody } from '../validation.js';

export const accessTokenRoutes = (deps: HttpDeps) => {
  const { useCases, settings } = deps;
  return new Hono<AppEnv>()
    .post('/access-tokens', async (c) => {
      const input = await jsonBody(c, signInSchema);
      const result = await useCases.signIn({ ...input, clientAddress: clientAddress(c, settings.trustedProxies) });
      return sendOne(c, 'AccessToken', { token: unwrap(result).token });
    })
    .delete('/access-tokens/:token', requireActor(deps), async (c) => {
      unwrap(await useCases.revokeAccessToken(c.var.actor, c.req.param('token')));
      return sendNoContent(c);
    });
};
