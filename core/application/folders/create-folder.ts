import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import type { Folder } from '../../domain/flow.js';
import { err, ok, type Result } from '../../domain/result.js';
import { authorize } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

/** A folder of the caller's; its name is unique among their folders. */
export const makeCreateFolder =
  ({ uow, clock, ids }: Pick<CoreDeps, 'uow' | 'clock' | 'ids'>) =>
  async (actor: Actor, input: { readonly name: string }): Promise<Result<Folder, DomainError>> => {
    const refused = authorize(actor, 'manage', 'Flow');
    if (refused) return err(refused);
    return uow.run(async (tx) =>
      ok(await tx.folders.insert({ id: ids.next(), userId: actor.user.id, name: input.name.trim(), now: clock.now() })),
    );
  };
