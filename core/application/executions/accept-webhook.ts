import type { IncomingRequest } from '../../../ports/step-runner.js';
import { appCallFailed, type DomainError, notFound, quotaExceeded } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { loadTriggered, runFlowTrigger, triggerTypeOf } from '../../engine/flow-triggers.js';
import type { IntakeGate } from '../../engine/intake-gate.js';
import { startRuns } from '../../engine/start-runs.js';
import type { Billing } from '../billing/plan-and-usage.js';
import type { CoreDeps } from '../deps.js';

type Deps = Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps' | 'runner' | 'queue' | 'logger' | 'settings'> & {
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
 * with their result. Before anything is read, the intake gate may refuse the call: the flow is
 * over its rate (429), or the process's backlog is full (503), so that an instance offered more
 * than it can run keeps running what it took instead of taking everything and finishing nothing.
 */
export const makeAcceptWebhook =
  (deps: Deps, gate: IntakeGate) =>
  async (
    flowId: string,
    request: IncomingRequest,
    { sync = false } = {},
  ): Promise<Result<AcceptedWebhook, DomainError>> => {
    const admitted = gate.enter(flowId);
    if (!admitted.ok) return admitted;
    try {
      const loaded = await loadTriggered(deps, flowId);
      if (!loaded || triggerTypeOf(deps, loaded.trigger) !== 'webhook') return err(notFound('Flow'));
      const { flow, trigger, version } = loaded;
      // Over quota, a published flow runs nothing; an unpublished one still keeps test data.
      if (flow.active && !(await deps.billing.mayRun(flow.userId))) return err(quotaExceeded());
      const outcome = await runFlowTrigger(deps, flow.id, trigger, request);
      if (outcome.kind === 'failure') return err(appCallFailed(outcome.failure.message));
      const executionIds = await startRuns(
        deps,
        { flowId, trigger, version, dataIn: trigger.parameters, items: outcome.items, testRun: !flow.active },
        { enqueue: !sync, finished: !flow.active },
      );
      if (flow.active) admitted.value.started(executionIds.length);
      return ok({ executionIds, active: flow.active });
    } finally {
      admitted.value.leave();
    }
  };
