import type { Repositories } from '../../ports/repositories.js';
import type { TriggerItem } from '../../ports/step-runner.js';
import type { CoreDeps } from '../application/deps.js';
import type { Step } from '../domain/flow.js';
import { ok } from '../domain/result.js';
import { EXECUTION_JOB } from './jobs.js';

export interface RunRequest {
  readonly flowId: string;
  readonly trigger: Step;
  /** The parameters the trigger ran with, recorded as its input. */
  readonly dataIn: unknown;
  /** The items, or how to pick them inside the transaction (polling deduplication). */
  readonly items: readonly TriggerItem[] | ((tx: Repositories) => Promise<readonly TriggerItem[]>);
  readonly testRun: boolean;
  readonly untilStepId?: string | null;
}

export interface StartOptions {
  /** Hand the runs to the queue (false: the caller runs them itself). */
  readonly enqueue?: boolean;
  /** Record the trigger's data only: the runs finish at once (an unpublished flow's webhook). */
  readonly finished?: boolean;
}

/**
 * Makes one execution per trigger item, each with its trigger step recorded, in one transaction;
 * then hands them to the queue. Once this returns, the runs are durable: should the process die
 * before the queue has them, the reaper finds them unclaimed and sends them again.
 */
export const startRuns = async (
  deps: Pick<CoreDeps, 'uow' | 'ids' | 'clock' | 'queue'>,
  request: RunRequest,
  { enqueue = true, finished = false }: StartOptions = {},
): Promise<string[]> => {
  const saved = await deps.uow.run(async (tx) => {
    const now = deps.clock.now();
    const items = typeof request.items === 'function' ? await request.items(tx) : request.items;
    const ids: string[] = [];
    for (const item of items) {
      const id = deps.ids.ordered();
      ids.push(id);
      await tx.executions.insert({
        id,
        flowId: request.flowId,
        testRun: request.testRun,
        untilStepId: request.untilStepId ?? null,
        retryOf: null,
        now,
      });
      await tx.executionSteps.insert({
        id: deps.ids.ordered(),
        executionId: id,
        stepId: request.trigger.id,
        position: request.trigger.position,
        status: 'success',
        dataIn: request.dataIn,
        dataOut: item.data,
        errorDetails: null,
        now,
      });
      if (finished) await tx.executions.finish(id, 'success', now);
    }
    return ok(ids);
  });
  if (!saved.ok) throw new Error(`could not record the runs of flow ${request.flowId}`);
  const ids = saved.value;
  if (enqueue && !finished) {
    await Promise.all(ids.map((executionId) => deps.queue.send({ name: EXECUTION_JOB, payload: { executionId } })));
  }
  return ids;
};
