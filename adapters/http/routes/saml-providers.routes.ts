import { Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendMany, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { requireEnterprise } from '../middleware/require-enterprise.js';
import { presentRoleMapping, samlPresenters } from '../presenters/saml.presenter.js';
import { unwrap } from '../respond.js';
import { roleMappingsSchema, samlProviderChangesSchema, samlProviderSchema } from '../schemas/saml.schemas.js';
import { idParam, jsonBody } from '../validation.js';

/** SAML identity providers and their role mappings (API.md §6.10): enterprise features. */
export const samlProviderRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const { presentSamlAuthProvider, presentPublicSamlAuthProvider } = samlPresenters(deps.settings.publicUrl);
  const providerId = (c: Parameters<typeof idParam>[0]) => idParam(c, 'samlAuthProviderId', 'SamlAuthProvider');
  return new Hono<AppEnv>()
    .get('/saml-auth-providers', requireEnterprise(deps), async (c) =>
      sendMany(
        c,
        'SamlAuthProvider',
        (await useCases.listActiveSamlAuthProviders()).map(presentPublicSamlAuthProvider),
      ),
    )
    .use(
      '/admin/saml-auth-providers/*',
      requireActor(deps),
      requireEnterprise(deps),
      requireAccess(deps)({ to: 'administration' }),
    )
    .get('/admin/saml-auth-providers', async (c) => {
      const providers = unwrap(await useCases.listSamlAuthProviders(c.var.actor));
      return sendMany(c, 'SamlAuthProvider', providers.map(presentSamlAuthProvider));
    })
    .get('/admin/saml-auth-providers/:samlAuthProviderId', async (c) => {
      const provider = unwrap(await useCases.getSamlAuthProvider(c.var.actor, providerId(c)));
      return sendOne(c, 'SamlAuthProvider', presentSamlAuthProvider(provider));
    })
    .post('/admin/saml-auth-providers', async (c) => {
      const input = await jsonBody(c, samlProviderSchema);
      const provider = unwrap(await useCases.createSamlAuthProvider(c.var.actor, input));
      return sendOne(c, 'SamlAuthProvider', presentSamlAuthProvider(provider), 201);
    })
    .patch('/admin/saml-auth-providers/:samlAuthProviderId', async (c) => {
      const id = providerId(c);
      const input = await jsonBody(c, samlProviderChangesSchema);
      const provider = unwrap(await useCases.updateSamlAuthProvider(c.var.actor, id, input));
      return sendOne(c, 'SamlAuthProvider', presentSamlAuthProvider(provider));
    })
    .get('/admin/saml-auth-providers/:samlAuthProviderId/role-mappings', async (c) => {
      const mappings = unwrap(await useCases.getSamlRoleMappings(c.var.actor, providerId(c)));
      return sendMany(c, 'RoleMapping', mappings.map(presentRoleMapping));
    })
    .patch('/admin/saml-auth-providers/:samlAuthProviderId/role-mappings', async (c) => {
      const id = providerId(c);
      const input = await jsonBody(c, roleMappingsSchema);
      const mappings = unwrap(await useCases.replaceSamlRoleMappings(c.var.actor, id, input));
      return sendMany(c, 'RoleMapping', mappings.map(presentRoleMapping));
    });
};
