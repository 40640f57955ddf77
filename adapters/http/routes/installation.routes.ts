import { Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendNoContent } from '../envelope.js';
import { unwrap } from '../respond.js';
import { installationSchema } from '../schemas/accounts.schemas.js';
import { jsonBody } from '../validation.js';

export const installationRoutes = ({ useCases }: HttpDeps) =>
  new Hono<AppEnv>().post('/installation/users', async (c) => {
    unwrap(await useCases.installFirstAdmin(await jsonBody(c, installationSchema)));
    return sendNoContent(c);
  });
