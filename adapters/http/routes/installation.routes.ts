import { Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendNoContent } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { unwrap } from '../respond.js';
import { installationSchema } from '../schemas/accounts.schemas.js';
import { jsonBody } from '../validation.js';

export const installationRoutes = (deps: HttpDeps) =>
  new Hono<AppEnv>().post('/installation/users', requireAccess(deps)({ to: 'installation' }), async (c) => {
    unwrap(await deps.useCases.installFirstAdmin(await jsonBody(c, installationSchema)));
    return sendNoContent(c);
  });
