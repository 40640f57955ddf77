import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { err, type Result } from '../../domain/result.js';
import type { SamlAuthProvider } from '../../domain/saml.js';
import { adminOnly } from '../../policy/index.js';
import { createSamlAuthProvider, type SamlProviderDeps } from './create-saml-auth-provider.js';
import type { SamlAuthProviderInput } from './provider-input.js';
import { updateSamlAuthProvider } from './update-saml-auth-provider.js';

/**
 * GraphQL's `upsertSamlAuthProvider`: changes the provider that has the input's issuer, or creates
 * one when there is none. `name`, `certificate` and `signatureAlgorithm` are required either way;
 * a new provider needs every other field too (but `active`).
 */
export const makeUpsertSamlAuthProvider =
  (deps: SamlProviderDeps) =>
  async (actor: Actor, input: SamlAuthProviderInput): Promise<Result<SamlAuthProvider, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    const issuer = input.issuer?.trim();
    const current = issuer ? await deps.repos.samlProviders.findByIssuer(issuer) : null;
    // Missing required fields read as empty, so that an update is refused for them too.
    const complete = {
      ...input,
      name: input.name ?? '',
      certificate: input.certificate ?? '',
      signatureAlgorithm: input.signatureAlgorithm ?? '',
    };
    return current ? updateSamlAuthProvider(deps, current, complete) : createSamlAuthProvider(deps, complete);
  };
