import type { Actor } from '../../domain/actor.js';
import { type DomainError, invalidInput, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { SamlRoleMapping } from '../../domain/saml.js';
import { adminOnly } from '../../policy/index.js';
import type { CoreDeps } from '../deps.js';

export interface RoleMappingInput {
  readonly remoteRoleName: string;
  readonly roleId: string;
}

const MAX_MAPPINGS = 100;

/** Which remote roles give which local role at sign-in, per provider (API.md §6.10). */
export const makeSamlRoleMappings = ({
  repos,
  uow,
  clock,
  ids,
}: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids'>) => ({
  async getSamlRoleMappings(actor: Actor, providerId: string): Promise<Result<SamlRoleMapping[], DomainError>> {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    if (!(await repos.samlProviders.findById(providerId))) return err(notFound('SamlAuthProvider'));
    return ok(await repos.samlProviders.listRoleMappings(providerId));
  },

  /**
   * Replaces every mapping of the provider at once, in the order given (the order they are tried
   * in). Remote role names are unique per provider; every role must exist.
   */
  async replaceSamlRoleMappings(
    actor: Actor,
    providerId: string,
    input: readonly RoleMappingInput[],
  ): Promise<Result<SamlRoleMapping[], DomainError>> {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    if (input.length > MAX_MAPPINGS) return err(invalidInput({ general: [`At most ${MAX_MAPPINGS} mappings.`] }));
    return uow.run(async (tx) => {
      if (!(await tx.samlProviders.findById(providerId))) return err(notFound('SamlAuthProvider'));
      const errors: Record<string, string[]> = {};
      const seen = new Set<string>();
      const mappings: SamlRoleMapping[] = [];
      for (const [i, entry] of input.entries()) {
        const remoteRoleName = entry.remoteRoleName.trim();
        if (remoteRoleName === '') errors[`${i}.remoteRoleName`] = ['is required.'];
        else if (seen.has(remoteRoleName)) errors[`${i}.remoteRoleName`] = ['repeats a remote role name given before.'];
        seen.add(remoteRoleName);
        if (!(await tx.roles.findById(entry.roleId))) errors[`${i}.roleId`] = ['does not exist.'];
        mappings.push({ id: ids.next(), samlAuthProviderId: providerId, roleId: entry.roleId, remoteRoleName });
      }
      if (Object.keys(errors).length > 0) return err(invalidInput(errors));
      await tx.samlProviders.replaceRoleMappings(providerId, mappings, clock.now());
      return ok(await tx.samlProviders.listRoleMappings(providerId));
    });
  },
});
