import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import type { InstanceConfig, InstanceConfigChanges } from '../../domain/instance.js';
import { err, ok, type Result } from '../../domain/result.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

export const makeUpdateInstanceConfig =
  ({ uow, clock }: Pick<CoreDeps, 'uow' | 'clock'>) =>
  async (actor: Actor, changes: InstanceConfigChanges): Promise<Result<InstanceConfig, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    return uow.run(async (tx) => {
      await tx.config.update(changes, clock.now());
      return ok(await tx.config.get());
    });
  };
