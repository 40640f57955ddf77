import { type Context, Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendMany, sendNoContent, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { requireEnterprise } from '../middleware/require-enterprise.js';
import { presentBuiltInTemplate, presentTemplate } from '../presenters/flow.presenter.js';
import { unwrap } from '../respond.js';
import { templateChangesSchema, templateSchema } from '../schemas/flows.schemas.js';
import { idParam, jsonBody } from '../validation.js';

/**
 * Flow templates: the instance's own are an enterprise feature, administered by admins and offered
 * to users when enabled; the built-in ones ship with Conveyor and are offered to every user.
 */
export const templateRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const id = (c: Context) => idParam(c, 'templateId', 'Template');
  return new Hono<AppEnv>()
    .use('/templates', requireActor(deps), requireEnterprise(deps))
    .use('/templates/built-in', requireActor(deps))
    .use(
      '/admin/templates/*',
      requireActor(deps),
      requireEnterprise(deps),
      requireAccess(deps)({ to: 'administration' }),
    )
    .get('/templates', async (c) =>
      sendMany(c, 'Template', unwrap(await useCases.listPublicTemplates(c.var.actor)).map(presentTemplate)),
    )
    .get('/templates/built-in', async (c) =>
      sendMany(
        c,
        'BuiltInTemplate',
        unwrap(await useCases.listBuiltInTemplates(c.var.actor)).map(presentBuiltInTemplate),
      ),
    )
    .get('/admin/templates', async (c) =>
      sendMany(c, 'Template', unwrap(await useCases.listTemplates(c.var.actor)).map(presentTemplate)),
    )
    .get('/admin/templates/:templateId', async (c) =>
      sendOne(c, 'Template', presentTemplate(unwrap(await useCases.getTemplate(c.var.actor, id(c))))),
    )
    .post('/admin/templates', async (c) => {
      const template = unwrap(await useCases.createTemplate(c.var.actor, await jsonBody(c, templateSchema)));
      return sendOne(c, 'Template', presentTemplate(template), 201);
    })
    .patch('/admin/templates/:templateId', async (c) => {
      const templateId = id(c);
      const input = await jsonBody(c, templateChangesSchema);
      return sendOne(
        c,
        'Template',
        presentTemplate(unwrap(await useCases.updateTemplate(c.var.actor, templateId, input))),
      );
    })
    .delete('/admin/templates/:templateId', async (c) => {
      unwrap(await useCases.deleteTemplate(c.var.actor, id(c)));
      return sendNoContent(c);
    });
};
