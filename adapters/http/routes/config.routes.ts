import { Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { requireEnterprise } from '../middleware/require-enterprise.js';
import { presentConfig } from '../presenters/administration.presenter.js';
import { unwrap } from '../respond.js';
import { configSchema } from '../schemas/administration.schemas.js';
import { jsonBody } from '../validation.js';

export const configRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  return new Hono<AppEnv>().patch(
    '/admin/config',
    requireActor(deps),
    requireEnterprise(deps),
    requireAccess(deps)({ to: 'administration' }),
    async (c) => {
      const config = unwrap(await useCases.updateInstanceConfig(c.var.actor, await jsonBody(c, configSchema)));
      return sendOne(c, 'Config', presentConfig(config));
    },
  );
};
