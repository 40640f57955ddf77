import type { ExecutionRepository } from '../../../ports/execution-repositories.js';
import { newExecutionRow } from './execution-rows.js';
import { executionStepRow } from './execution-steps.repository.js';
import { type Executor, withinTransaction } from './executor.js';
import { type RunRow, startRun, type TriggerRecordRow } from './run-statements.js';

/** New runs: a bare execution, or runs each with its trigger's record. */
export const runStarts = (executor: Executor): Pick<ExecutionRepository, 'insert' | 'start'> => {
  const { db, codec } = executor;
  return {
    async insert(execution) {
      await db.insertInto('executions').values(newExecutionRow(codec, execution)).execute();
    },

    async start(runs) {
      if (runs.length === 0) return;
      const executions = runs.map((run) => newExecutionRow(codec, run.execution));
      const triggers = runs.map((run) => executionStepRow(codec, run.trigger));
      if (codec.dialect === 'postgres' && runs.length > 1) {
        // A poll's new items: one statement, atomic without a transaction, and one round trip.
        await db
          .with('runs', (cte) => cte.insertInto('executions').values(executions))
          .insertInto('execution_steps')
          .values(triggers)
          .execute();
        return;
      }
      // One run on Postgres is one compiled statement; on SQLite each run's two share a transaction.
      const all = async (into: Executor) => {
        for (const [i, run] of executions.entries()) {
          await startRun(into, run as RunRow, triggers[i] as TriggerRecordRow);
        }
      };
      return codec.dialect === 'postgres' ? all(executor) : withinTransaction(executor, all);
    },
  };
};
