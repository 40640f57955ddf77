import type { Actor } from '../../domain/actor.js';
import { type DomainError, invalidInput, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { EXECUTION_JOB } from '../../engine/jobs.js';
import type { CoreDeps } from '../deps.js';
import type { ViewDeps } from '../flows/flow-views.js';
import { ownedRow } from '../load-owned.js';
import { type ExecutionDetail, makeGetExecution } from './execution-queries.js';

/** Which version a retry runs on: the one the failed run ran (`original`), or the flow's published one. */
export type RetryVersion = 'original' | 'current';

/**
 * Runs a failed execution again from its failed step: a new execution that starts with the old
 * one's successful steps (the trigger's data among them), so nothing that succeeded runs twice.
 * On the current version, only the records of steps that version still has are kept: the run goes
 * on from the first of its steps without one.
 */
export const makeRetryExecution =
  (deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'queue' | 'apps'> & ViewDeps) =>
  async (
    actor: Actor,
    executionId: string,
    { version = 'original' }: { readonly version?: RetryVersion | undefined } = {},
  ): Promise<Result<ExecutionDetail, DomainError>> => {
    const execution = await deps.repos.executions.findById(executionId);
    const readable = ownedRow(execution && { ...execution, userId: execution.flow.userId }, actor, 'read', 'Execution');
    if (!readable.ok || !execution) return readable.ok ? err(notFound('Execution')) : readable;
    const manageable = ownedRow({ userId: execution.flow.userId }, actor, 'manage', 'Flow');
    if (!manageable.ok) return manageable;
    if (execution.status !== 'failure') {
      return err(invalidInput({ general: ['Only a failed execution can be retried.'] }));
    }
    const published = execution.flow.publishedVersion;
    if (version === 'current' && (execution.testRun || !published)) {
      return err(
        invalidInput({
          version: [
            execution.testRun
              ? 'A test run runs on the draft: it can only be retried on it.'
              : 'The flow has no published version to retry on.',
          ],
        }),
      );
    }
    const runsOn = version === 'current' ? published : execution.flowVersion;
    const stepsThere =
      version === 'current' && published
        ? new Set((await deps.repos.flowVersions.findById(published.id))?.steps.map((s) => s.id))
        : null;
    const kept = (await deps.repos.executionSteps.listByExecution(executionId)).filter(
      (s) => s.status === 'success' && (stepsThere === null || stepsThere.has(s.stepId)),
    );
    const id = deps.ids.ordered();
    const saved = await deps.uow.run(async (tx) => {
      const now = deps.clock.now();
      await tx.executions.insert({
        id,
        flowId: execution.flowId,
        testRun: execution.testRun,
        untilStepId: execution.untilStepId,
        retryOf: execution.id,
        flowVersion: runsOn,
        now,
      });
      for (const step of kept) {
        await tx.executionSteps.insert({ ...step, id: deps.ids.ordered(), executionId: id, now: step.createdAt });
      }
      return ok(undefined);
    });
    if (!saved.ok) return saved;
    await deps.queue.send({ name: EXECUTION_JOB, payload: { executionId: id } });
    return makeGetExecution(deps)(actor, id);
  };
