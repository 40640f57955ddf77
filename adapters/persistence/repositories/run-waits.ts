import { sql } from 'kysely';
import type { ExecutionRepository } from '../../../ports/execution-repositories.js';
import { executionFromRow } from './execution-rows.js';
import type { Executor } from './executor.js';

/**
 * Runs that wait for something outside them: a signal on their resume URL, a run they called.
 * Waking and suspending both touch `wakes`, so that a wake that comes while the run is still on
 * its way to sleep is never lost.
 */
export const runWaits = (
  executor: Executor,
): Pick<ExecutionRepository, 'wake' | 'suspend' | 'resumeToken' | 'findCalled' | 'callsRunning'> => {
  const { db, codec } = executor;
  /** A moment as a value inside an expression: Postgres needs its type spelled there. */
  const moment = (date: Date) =>
    codec.dialect === 'postgres' ? sql`cast(${codec.timestamp(date)} as timestamptz)` : sql`${codec.timestamp(date)}`;
  return {
    async wake(id, now) {
      const at = codec.timestamp(now);
      const row = await db
        .updateTable('executions')
        .set({
          wakes: sql`wakes + 1`,
          resume_at: sql`case when status = 'waiting' then ${moment(now)} else resume_at end`,
          updated_at: at,
        })
        .where('id', '=', id)
        .where('status', 'in', ['running', 'waiting'])
        .returning('status')
        .executeTakeFirst();
      return row?.status === 'waiting';
    },

    async suspend(id, until, seenWakes, now) {
      const at = codec.timestamp(now);
      const row = await db
        .updateTable('executions')
        .set({
          status: 'waiting',
          resume_at: sql`case when wakes > ${seenWakes} then ${moment(now)} else ${moment(until)} end`,
          step_attempts: 0,
          lease_owner: null,
          lease_until: null,
          updated_at: at,
        })
        .where('id', '=', id)
        .returning('resume_at')
        .executeTakeFirst();
      return row?.resume_at ? codec.readTimestamp(row.resume_at) : until;
    },

    async resumeToken(id, candidate) {
      await db
        .updateTable('executions')
        .set({ resume_token: candidate })
        .where('id', '=', id)
        .where('resume_token', 'is', null)
        .execute();
      const row = await db.selectFrom('executions').select('resume_token').where('id', '=', id).executeTakeFirst();
      return row?.resume_token ?? candidate;
    },

    async callsRunning(parentExecutionId) {
      const row = await db
        .selectFrom('executions')
        .select('id')
        .where('parent_execution_id', '=', parentExecutionId)
        .where('status', 'in', ['running', 'waiting'])
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async findCalled(parentExecutionId, stepKey) {
      const row = await db
        .selectFrom('executions')
        .selectAll()
        .where('parent_execution_id', '=', parentExecutionId)
        .where('parent_step_key', '=', stepKey)
        .executeTakeFirst();
      return row ? executionFromRow(codec, row) : null;
    },
  };
};
