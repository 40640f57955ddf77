import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import type { Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { type FlowView, reloadView, type ViewDeps } from './flow-views.js';
import { loadFlow } from './load-flow.js';

/** The settings of a flow itself (its name); steps, status and folder have their own routes. */
export const makeUpdateFlow =
  ({ repos, uow, clock, apps, billing }: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'apps'> & ViewDeps) =>
  async (actor: Actor, flowId: string, changes: { readonly name?: string | undefined }) => {
    const loaded = await loadFlow(repos, actor, flowId, 'manage');
    if (!loaded.ok) return loaded;
    return uow.run(async (tx): Promise<Result<FlowView, DomainError>> => {
      await tx.flows.update(flowId, { ...(changes.name !== undefined && { name: changes.name.trim() }) }, clock.now());
      return reloadView(tx, { apps, billing }, flowId);
    });
  };
