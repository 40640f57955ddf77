import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { stepView } from '../flows/flow-views.js';
import { loadStep } from '../flows/load-flow.js';
import { appVersionOf, evaluateStep } from './step-status.js';
import type { TestedStep } from './test-step.js';

/**
 * Automatisch's "Continue" without a test. Automatisch marks the step completed; here a step's
 * status follows from its definition (every change re-checks it), so continuing re-checks it
 * against its app as it is now, and records that for a draft flow (a published flow's steps do not
 * change). Answers the step with the output of its last run, as a test does.
 */
export const makeContinueStep =
  (deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'apps'>) =>
  async (actor: Actor, stepId: string): Promise<Result<TestedStep, DomainError>> => {
    const loaded = await loadStep(deps.repos, actor, stepId, 'manage');
    if (!loaded.ok) return loaded;
    const { step, flow } = loaded.value;
    const status = evaluateStep(deps.apps, step);
    const appVersion = appVersionOf(deps.apps, step.appKey);
    if (!flow.active && (status !== step.status || appVersion !== step.appVersion)) {
      await deps.uow.run(async (tx) => {
        const now = deps.clock.now();
        await tx.steps.update(step.id, { status, appVersion }, now);
        await tx.flows.update(flow.id, {}, now);
        return ok(undefined);
      });
    }
    const current = (await deps.repos.steps.findById(step.id)) ?? step;
    return ok({ ...stepView(deps.apps, current), lastExecutionStep: await deps.repos.executionSteps.latest(step.id) });
  };
