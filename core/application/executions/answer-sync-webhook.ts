import type { IncomingRequest } from '../../../ports/step-runner.js';
import { type DomainError, executionFailed, webhookFiltered } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { RunExecution } from '../../engine/run-execution.js';
import type { CoreDeps } from '../deps.js';
import type { makeAcceptWebhook } from './accept-webhook.js';
import type { makeGetWebhookResponse, WebhookResponse } from './webhook-response.js';

/** What a `/sync` webhook call answers. Filtered and failed runs are errors (422). */
export type SyncWebhookAnswer =
  /** A "respond with" step's answer, or the trigger's own (a vendor's handshake, which starts no run). */
  /** The flow is not published (the call was kept as test data), or its trigger gave no item. */
  | { readonly kind: 'none' }
  | Extract<WebhookResponse, { kind: 'respond' }>
  /** The run finished with no "respond with" step that answered. */
  | { readonly kind: 'empty'; readonly executionId: string }
  /** Still running after the time limit (or waiting on a delay). */
  | { readonly kind: 'pending'; readonly executionId: string };

interface Deps extends Pick<CoreDeps, 'logger' | 'settings' | 'repos'> {
  readonly acceptWebhook: ReturnType<typeof makeAcceptWebhook>;
  readonly runExecution: RunExecution;
  readonly getWebhookResponse: ReturnType<typeof makeGetWebhookResponse>;
}

/** How often a sync call looks again at a run that waits for a flow it called. */
const SYNC_POLL_MS = 25;
const SYNC_GRACE_MS = 300;

const sleep = (ms: number) => new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms).unref());

/**
 * A synchronous webhook: the call's runs start in this process, not through the queue, and the
 * answer is the first run's "respond with" step, if it finishes within the time limit.
 */
export const makeAnswerSyncWebhook =
  (deps: Deps) =>
  async (flowId: string, request: IncomingRequest): Promise<Result<SyncWebhookAnswer, DomainError>> => {
    const accepted = await deps.acceptWebhook(flowId, request, { sync: true });
    if (!accepted.ok) return accepted;
    const { reply } = accepted.value;
    if (reply) return ok({ kind: 'respond', statusCode: reply.status, headers: reply.headers, body: reply.body });
    const [first, ...others] = accepted.value.executionIds;
    if (!accepted.value.active || !first) return ok({ kind: 'none' });
    const run = (id: string) =>
      deps.runExecution(id, `sync:${id}`).catch((error: unknown) => {
        // The run is stored: the reaper gives it to a worker once its lease runs out.
        deps.logger.error({ executionId: id, err: error }, 'synchronous run failed to complete');
        return 'skipped' as const;
      });
    for (const id of others) void run(id);
    const deadline = Date.now() + deps.settings.engine.syncTimeoutMs;
    const outcome = await Promise.race([run(first), sleep(deps.settings.engine.syncTimeoutMs)]);
    let response: WebhookResponse = outcome === 'timeout' ? { kind: 'pending' } : await deps.getWebhookResponse(first);
    // A run that waits for a flow it called goes on when that run ends, in a worker: the caller of
    // the webhook waits for it within the time limit. A run that waits for a person or a request
    // answers 202 at once.
    const goesOnSoon = async () => {
      if (await deps.repos.executions.callsRunning(first)) return true;
      const execution = await deps.repos.executions.findById(first);
      // Running in a worker, or woken by the called run's end and due now.
      return (
        execution?.status === 'running' ||
        (execution?.status === 'waiting' && (execution.resumeAt?.getTime() ?? Infinity) <= Date.now())
      );
    };
    // A called run's end and the wake it sends its caller are two writes: a short grace covers the
    // moment between them, when the caller looks asleep with nothing running for it.
    let busyAt = Date.now();
    while (response.kind === 'pending' && outcome !== 'timeout' && Date.now() < deadline) {
      if (await goesOnSoon()) busyAt = Date.now();
      else if (Date.now() - busyAt > SYNC_GRACE_MS) break;
      await sleep(Math.min(SYNC_POLL_MS, Math.max(0, deadline - Date.now())));
      response = await deps.getWebhookResponse(first);
    }
    switch (response.kind) {
      case 'respond':
        return ok(response);
      case 'filtered':
        return err(webhookFiltered());
      case 'failed':
        return err(executionFailed(first));
      case 'empty':
      case 'pending':
        return ok({ kind: response.kind, executionId: first });
    }
  };
