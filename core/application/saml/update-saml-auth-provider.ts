import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { SamlAuthProvider } from '../../domain/saml.js';
import { adminOnly } from '../../policy/index.js';
import type { SamlProviderDeps } from './create-saml-auth-provider.js';
import { checkProviderInput, type SamlAuthProviderInput } from './provider-input.js';

/** Changes the given fields of a provider; the others keep their values. */
export const updateSamlAuthProvider = async (
  { uow, clock, saml }: Pick<SamlProviderDeps, 'uow' | 'clock' | 'saml'>,
  current: SamlAuthProvider,
  input: SamlAuthProviderInput,
): Promise<Result<SamlAuthProvider, DomainError>> =>
  uow.run(async (tx) => {
    const checked = await checkProviderInput(saml, tx, input, current);
    if (!checked.ok) return checked;
    await tx.samlProviders.update(current.id, checked.value.changes, clock.now());
    const updated = await tx.samlProviders.findById(current.id);
    return updated ? ok(updated) : err(notFound('SamlAuthProvider'));
  });

export const makeUpdateSamlAuthProvider =
  (deps: SamlProviderDeps) =>
  async (
    actor: Actor,
    providerId: string,
    input: SamlAuthProviderInput,
  ): Promise<Result<SamlAuthProvider, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    const current = await deps.repos.samlProviders.findById(providerId);
    return current ? updateSamlAuthProvider(deps, current, input) : err(notFound('SamlAuthProvider'));
  };
