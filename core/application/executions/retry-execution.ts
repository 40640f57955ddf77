import type { ExecutionWithFlow } from '../../../ports/execution-repositories.js';
import type { Actor } from '../../domain/actor.js';
import { type DomainError, invalidInput, notFound } from '../../domain/errors.js';
import type { ExecutionStep } from '../../domain/execution.js';
import type { VersionRef } from '../../domain/flow.js';
import { err, ok, type Result } from '../../domain/result.js';
import { EXECUTION_JOB } from '../../engine/jobs.js';
import { stepsOfRun } from '../../engine/version-steps.js';
import type { CoreDeps } from '../deps.js';
import type { ViewDeps } from '../flows/flow-views.js';
import { ownedRow } from '../load-owned.js';
import { type ExecutionDetail, makeGetExecution } from './execution-queries.js';

type Deps = Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'queue' | 'apps'> & ViewDeps;

/** Which version a retry runs on: the one the failed run ran (`original`), or the flow's published one. */
export type RetryVersion = 'original' | 'current';

/**
 * Runs a failed execution again from its failed step: a new execution that starts with the old
 * one's successful steps (the trigger's data among them), so nothing that succeeded runs twice.
 * On the current version, only the records of steps that version still has are kept: the run goes
 * on from the first of its steps without one. With `fromStepId`, a finished run runs again from
 * that step (see `recordsBefore`).
 */
export const makeRetryExecution =
  (deps: Deps) =>
  async (
    actor: Actor,
    executionId: string,
    {
      version = 'original',
      fromStepId,
    }: { readonly version?: RetryVersion | undefined; readonly fromStepId?: string | undefined } = {},
  ): Promise<Result<ExecutionDetail, DomainError>> => {
    const execution = await deps.repos.executions.findById(executionId);
    const readable = ownedRow(execution && { ...execution, userId: execution.flow.userId }, actor, 'read', 'Execution');
    if (!readable.ok || !execution) return readable.ok ? err(notFound('Execution')) : readable;
    const manageable = ownedRow({ userId: execution.flow.userId }, actor, 'manage', 'Flow');
    if (!manageable.ok) return manageable;
    if (fromStepId !== undefined) {
      const chosen = await recordsBefore(deps, execution, fromStepId, version);
      if (!chosen.ok) return chosen;
      return startCopy(deps, actor, execution, execution.flowVersion, chosen.value);
    }
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
    return startCopy(deps, actor, execution, runsOn, kept);
  };

/**
 * A new execution of the same flow and trigger data that starts with `kept` (copies, with their
 * times and places, and not tasks: they are not run again) and is queued to go on from there.
 */
const startCopy = async (
  deps: Deps,
  actor: Actor,
  execution: ExecutionWithFlow,
  runsOn: VersionRef | null,
  kept: readonly ExecutionStep[],
): Promise<Result<ExecutionDetail, DomainError>> => {
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

const refuse = (message: string) => err(invalidInput({ fromStepId: [message] }));

/**
 * The records a re-run from `stepId` starts with: every record the run made before that step's,
 * whatever its status (a failure it went past continued on failure), so the run's state machine,
 * which runs the first step without a record, takes it up at that step, on the version it ran,
 * through the same branches. A step inside a loop's iteration is refused (the loop's other
 * iterations would need records of their own), as is one the run never reached.
 */
const recordsBefore = async (
  deps: Deps,
  execution: ExecutionWithFlow,
  stepId: string,
  version: RetryVersion | undefined,
): Promise<Result<ExecutionStep[], DomainError>> => {
  if (version === 'current') {
    return err(invalidInput({ version: ['A re-run from a step runs on the version the run ran.'] }));
  }
  if (execution.status !== 'success' && execution.status !== 'failure') {
    return err(invalidInput({ general: ['Only a finished execution can be re-run from a step.'] }));
  }
  const step = (await stepsOfRun(deps.repos, execution)).find((s) => s.id === stepId);
  if (!step) return refuse('is not a step of the version this execution ran.');
  if (step.type === 'trigger') return refuse("is the trigger: its record is the run's data. Choose an action.");
  const records = await deps.repos.executionSteps.listByExecution(execution.id);
  const at = records.findIndex((record) => record.stepId === stepId);
  const record = records[at];
  if (!record) return refuse('did not run in this execution (a branch that was not taken, or after the run ended).');
  if (record.scope !== '') return refuse("runs inside a loop's iterations: re-run from the loop step instead.");
  return ok(records.slice(0, at));
};
