import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { forbidden } from '../../../core/domain/errors.js';
import { clientAddress } from '../client-address.js';
import {
  CONSOLE_HEADER,
  consoleSessionToken,
  endConsoleSession,
  isConsoleRequest,
  startConsoleSession,
} from '../console-session.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendNoContent, sendOne } from '../envelope.js';
import { fail } from '../failures.js';
import { actorOf } from '../middleware/require-actor.js';
import { unwrap } from '../respond.js';
import { signInSchema } from '../schemas/accounts.schemas.js';
import { jsonBody } from '../validation.js';

/** Opening or closing the session is the console's alone: a page elsewhere cannot send the header. */
const consoleOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (!isConsoleRequest(c)) return fail(forbidden(`The console's session needs the ${CONSOLE_HEADER} header.`));
  await next();
});

/**
 * The web console's cookie session (see console-session.ts): sign in into it, ask whether it is
 * open, sign out of it. The token never reaches page script.
 */
export const consoleSessionRoutes = (deps: HttpDeps) => {
  const { useCases, settings } = deps;
  return new Hono<AppEnv>()
    .get('/session', async (c) => sendOne(c, 'Session', { signedIn: (await actorOf(deps, c)) !== null }))
    .post('/session', consoleOnly, async (c) => {
      const input = await jsonBody(c, signInSchema);
      const signedIn = unwrap(
        await useCases.signIn({ ...input, clientAddress: clientAddress(c, settings.trustedProxies) }),
      );
      startConsoleSession(c, settings, signedIn);
      return sendNoContent(c);
    })
    .delete('/session', consoleOnly, async (c) => {
      const token = consoleSessionToken(c);
      const actor = await actorOf(deps, c);
      // Signing out always closes the browser's side; the token is revoked when it still works.
      if (token && actor) await useCases.revokeAccessToken(actor, token);
      endConsoleSession(c, settings);
      return sendNoContent(c);
    });
};
