import { type Context, Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendMany, sendNoContent, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { presentForm } from '../presenters/form.presenter.js';
import { unwrap } from '../respond.js';
import { formChangesSchema, newFormSchema } from '../schemas/forms.schemas.js';
import { idParam, jsonBody } from '../validation.js';

/** The caller's own forms (Automatisch's `/forms` routes); their pages are `form-pages.routes.ts`. */
export const formRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const id = (c: Context) => idParam(c, 'formId', 'Form');
  return new Hono<AppEnv>()
    .use('/forms/*', requireActor(deps))
    .get('/forms', async (c) => sendMany(c, 'Form', unwrap(await useCases.listForms(c.var.actor)).map(presentForm)))
    .get('/forms/:formId', async (c) =>
      sendOne(c, 'Form', presentForm(unwrap(await useCases.getForm(c.var.actor, id(c))))),
    )
    .post('/forms', requireAccess(deps)({ to: 'permission', action: 'manage', subject: 'Flow' }), async (c) => {
      const form = unwrap(await useCases.createForm(c.var.actor, await jsonBody(c, newFormSchema)));
      return sendOne(c, 'Form', presentForm(form), 201);
    })
    .patch(
      '/forms/:formId',
      requireAccess(deps)((c) => ({ to: 'form', id: id(c), action: 'manage' })),
      async (c) => {
        const form = unwrap(await useCases.updateForm(c.var.actor, id(c), await jsonBody(c, formChangesSchema)));
        return sendOne(c, 'Form', presentForm(form));
      },
    )
    .delete('/forms/:formId', async (c) => {
      unwrap(await useCases.deleteForm(c.var.actor, id(c)));
      return sendNoContent(c);
    });
};
