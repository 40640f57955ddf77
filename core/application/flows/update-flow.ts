import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { type BasedOn, editDraft } from './draft.js';
import { type FlowView, reloadView, type ViewDeps } from './flow-views.js';
import { loadFlow } from './load-flow.js';

/** The settings of a flow itself (its name, part of its draft); steps, status and folder have their own routes. */
export const makeUpdateFlow =
  ({ repos, uow, clock, apps, billing }: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'apps'> & ViewDeps) =>
  async (actor: Actor, flowId: string, changes: { readonly name?: string | undefined }, basedOn?: BasedOn) => {
    const loaded = await loadFlow(repos, actor, flowId, 'manage');
    if (!loaded.ok) return loaded;
    const now = clock.now();
    return uow.run(async (tx): Promise<Result<FlowView, DomainError>> => {
      const edited = await editDraft(tx, flowId, basedOn, now, async () => {
        await tx.flows.update(flowId, { ...(changes.name !== undefined && { name: changes.name.trim() }) }, now);
        return ok(undefined);
      });
      return edited.ok ? reloadView(tx, { apps, billing }, flowId) : edited;
    });
  };
