import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { publishRefusal } from '../../domain/flow-rules.js';
import { err, type Result } from '../../domain/result.js';
import { makeSyncFlowSchedule } from '../../engine/flow-triggers.js';
import type { CoreDeps } from '../deps.js';
import { currentStatus } from '../steps/step-status.js';
import { type FlowView, reloadView, type ViewDeps } from './flow-views.js';
import { loadFlow } from './load-flow.js';

/**
 * Publishes or unpublishes a flow. Publishing re-checks every step against the apps as they are
 * now, so a step saved as completed that a later app version no longer accepts stops it.
 */
export const makeUpdateFlowStatus =
  (deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps' | 'runner' | 'queue' | 'logger'> & ViewDeps) =>
  async (actor: Actor, flowId: string, input: { readonly active: boolean }): Promise<Result<FlowView, DomainError>> => {
    const { repos, uow, clock, apps } = deps;
    const loaded = await loadFlow(repos, actor, flowId, 'manage');
    if (!loaded.ok) return loaded;
    const changed = await uow.run(async (tx) => {
      const flow = await tx.flows.findById(flowId);
      if (!flow) return err(notFound('Flow'));
      if (input.active && !flow.active) {
        const steps = (await tx.steps.listByFlow(flowId)).map((step) => ({
          type: step.type,
          status: currentStatus(apps, step),
        }));
        const refused = publishRefusal(steps);
        if (refused) return err(refused);
      }
      if (input.active !== flow.active) {
        const now = clock.now();
        await tx.flows.update(flowId, { active: input.active, ...(input.active && { publishedAt: now }) }, now);
      }
      return reloadView(tx, deps, flowId);
    });
    // Schedules follow the stored state; a start-up reconciliation mends a crash in between.
    if (changed.ok) await makeSyncFlowSchedule(deps)(flowId);
    return changed;
  };
