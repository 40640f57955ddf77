import type { ExecutionRepository } from '../../../ports/execution-repositories.js';
import type { Executor } from './executor.js';

/** What the reaper and retention need: runs left without a worker, and old finished runs. */
export const executionMaintenance = (
  executor: Executor,
): Pick<ExecutionRepository, 'findStranded' | 'findUnwoken' | 'deleteFinishedBefore'> => {
  const { db, codec } = executor;
  return {
    async findStranded(now, unclaimedSince, limit) {
      const at = codec.timestamp(now);
      const rows = await db
        .selectFrom('executions')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'running'), eb('lease_until', '<', at)]),
            eb.and([
              eb('status', '=', 'running'),
              eb('lease_until', 'is', null),
              eb('updated_at', '<', codec.timestamp(unclaimedSince)),
            ]),
            eb.and([eb('status', '=', 'waiting'), eb('resume_at', '<=', at)]),
          ]),
        )
        .orderBy('updated_at')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },

    async findUnwoken(limit) {
      const rows = await db
        .selectFrom('executions as p')
        .select('p.id')
        .where('p.status', '=', 'waiting')
        .where((eb) =>
          eb.or([
            eb.exists(
              eb
                .selectFrom('executions as c')
                .select('c.id')
                .whereRef('c.parent_execution_id', '=', 'p.id')
                .where('c.status', 'in', ['success', 'failure'])
                .whereRef('c.finished_at', '>=', 'p.updated_at'),
            ),
            eb.exists(
              eb
                .selectFrom('run_signals as s')
                .select('s.id')
                .whereRef('s.execution_id', '=', 'p.id')
                .where('s.taken_by', 'is', null)
                .whereRef('s.created_at', '>=', 'p.updated_at'),
            ),
          ]),
        )
        .orderBy('p.updated_at')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },

    async deleteFinishedBefore(cutoff, limit) {
      const ids = (
        await db
          .selectFrom('executions')
          .select('id')
          .where('finished_at', '<', codec.timestamp(cutoff))
          .orderBy('finished_at')
          .limit(limit)
          .execute()
      ).map((r) => r.id);
      if (ids.length === 0) return 0;
      await db.deleteFrom('execution_step_calls').where('execution_id', 'in', ids).execute();
      await db.deleteFrom('execution_steps').where('execution_id', 'in', ids).execute();
      await db.deleteFrom('agent_executions').where('execution_id', 'in', ids).execute();
      await db.deleteFrom('executions').where('id', 'in', ids).execute();
      return ids.length;
    },
  };
};
