import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { makeSyncFlowTrigger } from '../../engine/flow-triggers.js';
import type { CoreDeps } from '../deps.js';
import type { BasedOn } from './draft.js';
import { type FlowView, listenerState, reloadView, type ViewDeps } from './flow-views.js';
import { loadFlow } from './load-flow.js';
import { deactivate, followPublish, publishDraft } from './publish-flow.js';

/**
 * The Automatisch-style switch. `active: true` publishes the draft when it has changes (the
 * editor's "Publish"), or runs the published version again; `active: false` stops the flow and
 * keeps its versions. An instant trigger's vendor that refuses its hook fails the switch on, and
 * the flow stays off.
 */
export const makeUpdateFlowStatus = (
  deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps' | 'runner' | 'queue' | 'logger' | 'settings'> &
    ViewDeps,
) => {
  const syncTrigger = makeSyncFlowTrigger(deps);
  const follow = followPublish(deps);
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
    if (!changed.value.active) {
      await syncTrigger(flowId);
      return changed;
    }
    const followed = await follow(flowId);
    if (!followed.ok) return followed;
    // A listener trigger's subscription is asked for by the sync: the answer shows it.
    return ok({ ...changed.value, listener: listenerState((await deps.repos.listeners.find(flowId)) ?? undefined) });
  };
};
