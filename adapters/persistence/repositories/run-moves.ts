import type { ExecutionRepository } from '../../../ports/execution-repositories.js';
import { afterStepUpdate, finishedUpdate, waitingUpdate } from './execution-rows.js';
import { executionStepRow } from './execution-steps.repository.js';
import { type Executor, withinTransaction } from './executor.js';
import { billRunTasks, insertRecord, moveRun, type RecordRow, recordAndMoveRun } from './run-statements.js';

/**
 * A run moved on as the engine's state machine decided: a step recorded, a pause, the next step,
 * the end with its tasks billed. Each write is atomic; none decides anything.
 */
export const runMoves = (executor: Executor): Pick<ExecutionRepository, 'wait' | 'finish' | 'recordStep'> => {
  const { db, codec } = executor;
  return {
    async wait(id, resumeAt, stepAttempts, now) {
      await db
        .updateTable('executions')
        .set(waitingUpdate(codec, resumeAt, stepAttempts, now))
        .where('id', '=', id)
        .execute();
    },

    async finish(id, status, now, tasks) {
      await withinTransaction(executor, async (tx) => {
        await moveRun(tx, id, finishedUpdate(codec, status, now));
        if (tasks !== null) await billRunTasks(tx, id, tasks, now);
      });
    },

    async recordStep(step, next) {
      // A step the engine records is an action it ran, a task (when the run is not a test), unless
      // it only chose where the run goes (paths, loops).
      const row = { ...executionStepRow(codec, step), is_task: codec.bool(step.task ?? true) } as RecordRow;
      const update = afterStepUpdate(codec, next, step.now);
      if (!update) return insertRecord(executor, row);
      const tasks = next.kind === 'finish' ? next.tasks : null;
      if (codec.dialect === 'postgres') return recordAndMoveRun(executor, row, update, { tasks, now: step.now });
      return withinTransaction(executor, async (tx) => {
        if (!(await insertRecord(tx, row))) return false;
        await moveRun(tx, step.executionId, update);
        if (tasks !== null) await billRunTasks(tx, step.executionId, tasks, step.now);
        return true;
      });
    },
  };
};
