import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { settleDraft } from '../flows/draft.js';
import { loadConnection } from './load-connection.js';

/**
 * Steps that used the connection lose it and become incomplete (their flows stay as they are
 * otherwise). That changes those flows' drafts: their revisions grow, so an editor who had the
 * step open reloads instead of putting the connection back unawares. Published versions keep
 * naming it: their runs fail at that step until a version with another connection is published.
 */
export const makeDeleteConnection =
  ({ repos, uow, clock }: Pick<CoreDeps, 'repos' | 'uow' | 'clock'>) =>
  async (actor: Actor, connectionId: string): Promise<Result<void, DomainError>> => {
    const loaded = await loadConnection(repos, actor, connectionId, 'manage');
    if (!loaded.ok) return loaded;
    return uow.run(async (tx) => {
      const now = clock.now();
      for (const flowId of await tx.steps.detachConnection(connectionId, now)) {
        await tx.flows.reviseDraft(flowId, null, now);
        await settleDraft(tx, flowId, now);
      }
      await tx.connections.delete(connectionId);
      return ok(undefined);
    });
  };
