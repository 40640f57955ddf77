import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { adminOnly } from '../../policy/authorize.js';
import { PERMISSION_CATALOG } from '../../policy/catalog.js';

export const makeGetPermissionCatalog =
  () =>
  async (actor: Actor): Promise<Result<typeof PERMISSION_CATALOG, DomainError>> => {
    const refused = adminOnly(actor);
    return refused ? err(refused) : ok(PERMISSION_CATALOG);
  };
