import { type DomainError, invalidInput } from '../../domain/errors.js';
import type { Permission } from '../../domain/role.js';
import { isInCatalog } from '../../policy/catalog.js';

export interface RoleInput {
  readonly name: string;
  readonly description?: string | null | undefined;
  readonly permissions: ReadonlyArray<{ action: string; subject: string; conditions: readonly string[] }>;
}

/** Checks untrusted permissions against the catalog; duplicates of one action and subject are refused too. */
export const catalogPermissions = (input: Pick<RoleInput, 'permissions'>): Permission[] | DomainError => {
  const fields: Record<string, string[]> = {};
  const seen = new Set<string>();
  input.permissions.forEach((p, i) => {
    const key = `${p.action}:${p.subject}`;
    if (!isInCatalog(p)) fields[`permissions.${i}`] = ['is not in the permission catalog.'];
    else if (seen.has(key)) fields[`permissions.${i}`] = ['repeats an action and subject given before.'];
    seen.add(key);
  });
  return Object.keys(fields).length > 0 ? invalidInput(fields) : (input.permissions as Permission[]);
};
