import type { Actor } from '../../domain/actor.js';
import type { StepCall } from '../../domain/agent.js';
import { type DomainError, invalidInput, notFound } from '../../domain/errors.js';
import { isFinished } from '../../domain/execution.js';
import { err, ok, type Result } from '../../domain/result.js';
import { wakeRun } from '../../engine/wake-run.js';
import type { CoreDeps } from '../deps.js';
import { ownedRow } from '../load-owned.js';
import { loadExecution } from './execution-queries.js';

/** The calls the run's steps made (an agent's model and tool calls), step by step, each step's by seq. */
export const makeListStepCalls =
  (deps: Pick<CoreDeps, 'repos'>) =>
  async (actor: Actor, executionId: string): Promise<Result<readonly StepCall[], DomainError>> => {
    const loaded = await loadExecution(deps, actor, executionId);
    if (!loaded.ok) return loaded;
    return ok(await deps.repos.stepCalls.listByExecution(executionId));
  };

/** A call of the run that those who may read the run and manage its flow may answer; not found otherwise. */
export const makeFindStepCall =
  (deps: Pick<CoreDeps, 'repos'>) =>
  async (actor: Actor, executionId: string, callId: string): Promise<Result<StepCall, DomainError>> => {
    const execution = await deps.repos.executions.findById(executionId);
    const readable = ownedRow(execution && { ...execution, userId: execution.flow.userId }, actor, 'read', 'Execution');
    if (!readable.ok || !execution) return readable.ok ? err(notFound('Execution')) : readable;
    const manageable = ownedRow({ userId: execution.flow.userId }, actor, 'manage', 'Flow');
    if (!manageable.ok) return manageable;
    const call = (await deps.repos.stepCalls.listByExecution(executionId)).find((c) => c.id === callId);
    return call ? ok(call) : err(notFound('StepCall'));
  };

/**
 * A person approves or denies a tool call an agent waits on (its tool asks first): the answer
 * reaches the run as an `approval` signal meant for that call alone, and wakes it. Those who may
 * read the run and manage its flow answer; the first answer the run takes counts.
 */
export const makeAnswerStepCall =
  (deps: Pick<CoreDeps, 'repos' | 'queue' | 'clock' | 'ids'>) =>
  async (
    actor: Actor,
    executionId: string,
    callId: string,
    approved: boolean,
  ): Promise<Result<StepCall, DomainError>> => {
    const found = await makeFindStepCall(deps)(actor, executionId, callId);
    if (!found.ok) return found;
    const call = found.value;
    const execution = await deps.repos.executions.findById(executionId);
    if (call.status !== 'waiting' || !execution || isFinished(execution.status)) {
      return err(invalidInput({ approved: ['The call is not waiting for approval.'] }));
    }
    await deps.repos.runSignals.add({
      id: deps.ids.ordered(),
      executionId,
      kind: 'approval',
      payload: { approved, by: actor.user.id },
      target: call.id,
      now: deps.clock.now(),
    });
    await wakeRun(deps, executionId);
    return ok(call);
  };
