import { errorMessage } from '../../core/domain/errors.js';
import type { NewRun } from '../../ports/execution-repositories.js';
import type { Repositories } from '../../ports/repositories.js';
import type { TriggerItem } from '../../ports/step-runner.js';
import { runTasks } from '../domain/billing.js';
import type { Step, VersionRef } from '../domain/flow.js';
import { ok } from '../domain/result.js';
import type { EngineDeps } from './deps.js';
import { EXECUTION_JOB } from './jobs.js';

export interface RunRequest {
  readonly flowId: string;
  readonly trigger: Step;
  /** The version the runs run on; null runs the draft (test runs). */
  readonly version: VersionRef | null;
  /** The parameters the trigger ran with, recorded as its input. */
  readonly dataIn: unknown;
  /** The items, or how to pick them inside the transaction (polling deduplication). */
  readonly items: readonly TriggerItem[] | ((tx: Repositories) => Promise<readonly TriggerItem[]>);
  readonly testRun: boolean;
  readonly untilStepId?: string | null;
  /** The run and step that called the flow (`flows.callFlow`). */
  readonly calledBy?: { readonly executionId: string; readonly stepKey: string; readonly depth: number } | null;
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
  deps: Pick<EngineDeps, 'repos' | 'uow' | 'ids' | 'clock' | 'queue' | 'logger'>,
  request: RunRequest,
  { enqueue = true, finished = false }: StartOptions = {},
): Promise<string[]> => {
  const now = deps.clock.now();
  const runsOf = (items: readonly TriggerItem[]): NewRun[] =>
    items.map((item) => {
      const id = deps.ids.ordered();
      const execution = {
        id,
        flowId: request.flowId,
        testRun: request.testRun,
        untilStepId: request.untilStepId ?? null,
        retryOf: null,
        flowVersion: request.version,
        calledBy: request.calledBy ?? null,
        now,
      };
      const trigger = {
        id: deps.ids.ordered(),
        executionId: id,
        stepId: request.trigger.id,
        position: request.trigger.position,
        status: 'success' as const,
        dataIn: request.dataIn,
        dataOut: item.data,
        errorDetails: null,
        now,
      };
      return { execution, trigger };
    });
  const { items } = request;
  let runs: NewRun[];
  if (typeof items !== 'function' && !finished) {
    // The common case (a webhook's items, nothing else to write) needs no unit of work.
    runs = runsOf(items);
    await deps.repos.executions.start(runs);
  } else {
    const saved = await deps.uow.run(async (tx) => {
      const made = runsOf(typeof items === 'function' ? await items(tx) : items);
      await tx.executions.start(made);
      if (finished)
        for (const run of made)
          await tx.executions.finish(run.execution.id, 'success', now, runTasks(request.testRun, 0));
      return ok(made);
    });
    if (!saved.ok) throw new Error(`could not record the runs of flow ${request.flowId}`);
    runs = saved.value;
  }
  const ids = runs.map((run) => run.execution.id);
  if (enqueue && !finished) {
    // The runs are stored: a send that fails now (the queue's database away) must not fail the
    // caller, whose retry (a webhook sender's, after a 5xx) would start them a second time.
    await Promise.all(
      ids.map((executionId) =>
        deps.queue.send({ name: EXECUTION_JOB, payload: { executionId } }).catch((error: unknown) => {
          deps.logger.warn(
            { executionId, err: errorMessage(error) },
            'a stored run could not be queued; the reaper will queue it',
          );
        }),
      ),
    );
  }
  return ids;
};
