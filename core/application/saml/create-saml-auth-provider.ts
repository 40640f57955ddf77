import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { SamlAuthProvider } from '../../domain/saml.js';
import { adminOnly } from '../../policy/index.js';
import type { CoreDeps } from '../deps.js';
import { checkProviderInput, type SamlAuthProviderInput } from './provider-input.js';

export type SamlProviderDeps = Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'saml'>;

/** Stores a new provider; a taken issuer is a unique violation. */
export const createSamlAuthProvider = async (
  { uow, clock, ids, saml }: SamlProviderDeps,
  input: SamlAuthProviderInput,
): Promise<Result<SamlAuthProvider, DomainError>> =>
  uow.run(async (tx) => {
    const checked = await checkProviderInput(saml, tx, input, null);
    if (!checked.ok) return checked;
    return ok(await tx.samlProviders.insert({ ...checked.value.fields, id: ids.next(), now: clock.now() }));
  });

export const makeCreateSamlAuthProvider =
  (deps: SamlProviderDeps) =>
  async (actor: Actor, input: SamlAuthProviderInput): Promise<Result<SamlAuthProvider, DomainError>> => {
    const refused = adminOnly(actor);
    return refused ? err(refused) : createSamlAuthProvider(deps, input);
  };
