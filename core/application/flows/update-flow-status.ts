import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { makeSyncFlowTrigger } from '../../engine/flow-triggers.js';
import type { CoreDeps } from '../deps.js';
import type { BasedOn } from './draft.js';
import { type FlowView, listenerState, reloadView, type ViewDeps } from './flow-views.js';
import { loadFlow } from './load-flow.js';
import { deactivate, publishDraft } from './publish-flow.js';

/**
 * The Automatisch-style switch. `active: true` publishes the draft when it has changes (the
 * editor's "Publish"), or runs the published version again; `active: false` stops the flow and
 * keeps its versions.
 */
export const makeUpdateFlowStatus = (
  deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps' | 'runner' | 'queue' | 'logger'> & ViewDeps,
) => {
  const syncTrigger = makeSyncFlowTrigger(deps);
  return async (
    actor: Actor,
    flowId: string,
    input: { readonly active: boolean; readonly basedOn?: BasedOn },
  ): Promise<Result<FlowView, DomainError>> => {
    const loaded = await loadFlow(deps.repos, actor, flowId, 'manage');
    if (!loaded.ok) return loaded;
    const changed = await deps.uow.run(async (tx) => {
      const flow = await tx.flows.findById(flowId);
      if (!flow) return err(notFound('Flow'));
      if (!input.active) await deactivate(tx, flow, deps.clock.now());
      else if (!flow.active || flow.hasDraftChanges) {
        const published = await publishDraft(tx, deps, flowId, actor.user.id, { basedOn: input.basedOn });
        if (!published.ok) return published;
      }
      return reloadView(tx, deps, flowId);
    });
    if (!changed.ok) return changed;
    await syncTrigger(flowId);
    if (!changed.value.active) return changed;
    // A listener trigger's subscription is asked for by the sync: the answer shows it.
    return ok({ ...changed.value, listener: listenerState((await deps.repos.listeners.find(flowId)) ?? undefined) });
  };
};
