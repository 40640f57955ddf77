import type { IncomingRequest } from '../../../ports/step-runner.js';
import { appCallFailed, type DomainError, notFound, quotaExceeded } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { loadTriggered, runFlowTrigger, triggerTypeOf } from '../../engine/flow-triggers.js';
import { startRuns } from '../../engine/start-runs.js';
import type { Billing } from '../billing/plan-and-usage.js';
import type { CoreDeps } from '../deps.js';

type Deps = Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps' | 'runner' | 'queue' | 'logger'> & {
  readonly billing: Pick<Billing, 'mayRun'>;
};

export interface AcceptedWebhook {
  /** The runs started (none when the trigger produced no item). */
  readonly executionIds: readonly string[];
  /** False: the flow is not published; the request was kept as test data for the editor only. */
  readonly active: boolean;
}

/**
 * Webhook intake: the flow's webhook trigger turns the request into items, and each item becomes
 * a durable run before this returns. `sync` runs are not queued: the caller runs them and answers
 * with their result.
 */
export const makeAcceptWebhook =
  (deps: Deps) =>
  async (
    flowId: string,
    request: IncomingRequest,
    { sync = false } = {},
  ): Promise<Result<AcceptedWebhook, DomainError>> => {
    const loaded = await loadTriggered(deps, flowId);
    if (!loaded || triggerTypeOf(deps, loaded.trigger) !== 'webhook') return err(notFound('Flow'));
    const { flow, trigger } = loaded;
    // Over quota, a published flow runs nothing; an unpublished one still keeps test data.
    if (flow.active && !(await deps.billing.mayRun(flow.userId))) return err(quotaExceeded());
    const outcome = await runFlowTrigger(deps, flow.id, trigger, request);
    if (outcome.kind === 'failure') return err(appCallFailed(outcome.failure.message));
    const executionIds = await startRuns(
      deps,
      { flowId, trigger, dataIn: trigger.parameters, items: outcome.items, testRun: !flow.active },
      { enqueue: !sync, finished: !flow.active },
    );
    return ok({ executionIds, active: flow.active });
  };
