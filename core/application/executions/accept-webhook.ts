import type { IncomingRequest, TriggerReply } from '../../../ports/step-runner.js';
import { appCallFailed, type DomainError, notFound, quotaExceeded, webhookUnverified } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { bodyProblem, headersProblem, statusProblem } from '../../domain/webhook-answer.js';
import { loadTriggered, runWebhookDelivery, triggerTypeOf } from '../../engine/flow-triggers.js';
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
  /** The trigger answered the request itself (a vendor's handshake): what to send; no run started. */
  readonly reply: TriggerReply | null;
}

/** Why a trigger's own answer cannot be sent as it is, or null. */
const replyProblem = ({ status, headers, body }: TriggerReply): string | null => {
  const status_ = statusProblem(status);
  if (status_) return `its status ${status_}`;
  const body_ = bodyProblem(status, body !== null && body !== '');
  if (body_) return `its body ${body_}`;
  return headersProblem(Object.entries(headers).map(([key, value]) => ({ key, value })));
};

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
      const outcome = await runWebhookDelivery(deps, flow.id, trigger, request);
      if (outcome.kind === 'failure') return err(appCallFailed(outcome.failure.message));
      if (outcome.kind === 'refused') {
        // The request's body may be anything a forger sent: the log keeps the reason only.
        deps.logger.warn({ flowId, app: trigger.appKey, reason: outcome.reason }, 'webhook delivery refused');
        return err(webhookUnverified(outcome.reason));
      }
      if (outcome.kind === 'reply') {
        const problem = replyProblem(outcome.reply);
        if (problem) return err(appCallFailed(`The trigger's answer to the request cannot be sent: ${problem}`));
        return ok({ executionIds: [], active: flow.active, reply: outcome.reply });
      }
      const executionIds = await startRuns(
        deps,
        { flowId, trigger, version, dataIn: trigger.parameters, items: outcome.items, testRun: !flow.active },
        { enqueue: !sync, finished: !flow.active },
      );
      if (flow.active) admitted.value.started(executionIds.length);
      return ok({ executionIds, active: flow.active, reply: null });
    } finally {
      admitted.value.leave();
    }
  };
