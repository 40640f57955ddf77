import type { RunSignalRepository } from '../../../ports/execution-repositories.js';
import type { SignalKind } from '../../../ports/step-runner.js';
import type { Executor } from './executor.js';
import { withinTransaction } from './executor.js';

/** What a step keeps between its turns is a row of this kind, taken by the step from the start. */
const KEPT = 'kept';

/** Signals that reached runs, each taken by one waiting step; and what waiting steps keep. */
export const createRunSignalRepository = (executor: Executor): RunSignalRepository => {
  const { codec } = executor;
  const takenBy = (into: Executor, executionId: string, kind: string, stepKey: string, target: string | null) =>
    into.db
      .selectFrom('run_signals')
      .selectAll()
      .where('execution_id', '=', executionId)
      .where('kind', '=', kind)
      .where('taken_by', '=', stepKey)
      .where('target', target === null ? 'is' : '=', target)
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
  const json = (value: unknown) => (value === null || value === undefined ? null : codec.readJson<unknown>(value));

  return {
    async add(signal) {
      await executor.db
        .insertInto('run_signals')
        .values({
          id: signal.id,
          execution_id: signal.executionId,
          kind: signal.kind,
          payload: signal.payload === undefined ? null : codec.json(signal.payload),
          taken_by: null,
          target: signal.target ?? null,
          created_at: codec.timestamp(signal.now),
        })
        .execute();
    },

    async take(executionId, kind, stepKey, target) {
      const meantFor = target ?? null;
      return withinTransaction(executor, async (tx) => {
        let row = await takenBy(tx, executionId, kind, stepKey, meantFor);
        if (!row) {
          // One statement takes the oldest untaken signal, so that two steps never take the same.
          const oldest = tx.db
            .selectFrom('run_signals')
            .select('id')
            .where('execution_id', '=', executionId)
            .where('kind', '=', kind)
            .where('taken_by', 'is', null)
            .where('target', meantFor === null ? 'is' : '=', meantFor)
            .orderBy('created_at')
            .orderBy('id')
            .limit(1);
          await tx.db
            .updateTable('run_signals')
            .set({ taken_by: stepKey })
            .where('id', '=', (eb) => eb.selectFrom(oldest.as('o')).select('o.id'))
            .where('taken_by', 'is', null)
            .execute();
          row = await takenBy(tx, executionId, kind, stepKey, meantFor);
        }
        return row
          ? { kind: row.kind as SignalKind, payload: json(row.payload), at: codec.readTimestamp(row.created_at) }
          : null;
      });
    },

    async keep(executionId, stepKey, value, newId, now) {
      return withinTransaction(executor, async (tx) => {
        const kept = await takenBy(tx, executionId, KEPT, stepKey, null);
        if (kept) return json(kept.payload);
        await tx.db
          .insertInto('run_signals')
          .values({
            id: newId,
            execution_id: executionId,
            kind: KEPT,
            payload: value === undefined ? null : codec.json(value),
            taken_by: stepKey,
            target: null,
            created_at: codec.timestamp(now),
          })
          .execute();
        return value;
      });
    },
  };
};
