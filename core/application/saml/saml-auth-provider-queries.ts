import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { SamlAuthProvider } from '../../domain/saml.js';
import { adminOnly } from '../../policy/index.js';
import type { CoreDeps } from '../deps.js';

/** Reading providers: administrators see every field; the sign-in page sees the active ones. */
export const makeSamlAuthProviderQueries = ({ repos }: Pick<CoreDeps, 'repos'>) => ({
  async listSamlAuthProviders(actor: Actor): Promise<Result<SamlAuthProvider[], DomainError>> {
    const refused = adminOnly(actor);
    return refused ? err(refused) : ok(await repos.samlProviders.list({ activeOnly: false }));
  },

  async getSamlAuthProvider(actor: Actor, providerId: string): Promise<Result<SamlAuthProvider, DomainError>> {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    const provider = await repos.samlProviders.findById(providerId);
    return provider ? ok(provider) : err(notFound('SamlAuthProvider'));
  },

  /** For anyone, before sign-in: the presenter shows only what a login page needs. */
  listActiveSamlAuthProviders: (): Promise<SamlAuthProvider[]> => repos.samlProviders.list({ activeOnly: true }),
});
