import type { ExecutionRepository } from '../../../ports/execution-repositories.js';
import { executionFromRow } from './execution-rows.js';
import { claimedRecordFromRow, claimedRecordsOf } from './execution-steps.repository.js';
import type { Executor } from './executor.js';
import { claimRun, claimRunWithSteps } from './run-statements.js';
import { createStepRepository, stepFromRow } from './steps.repository.js';

/** A worker's hold on runs: taking one up with what running it needs, and keeping the leases alive. */
export const runClaims = (executor: Executor): Pick<ExecutionRepository, 'claim' | 'renew'> => {
  const { db, codec } = executor;
  // What a claim reads beside the run, on SQLite (Postgres reads it in the claim's statement).
  const steps = createStepRepository(executor);
  return {
    async claim(id, lease, now) {
      const values = { id, owner: lease.owner, until: codec.timestamp(lease.until), at: codec.timestamp(now) };
      if (codec.dialect === 'postgres') {
        const [row] = (await claimRunWithSteps(executor, values)).rows;
        if (!row) return null;
        const { claimed_steps, claimed_records, claimed_owner_removed, ...execution } = row;
        return {
          execution: executionFromRow(codec, execution),
          steps: execution.flow_version_id === null ? claimed_steps.map((step) => stepFromRow(codec, step)) : null,
          recorded: claimed_records.map((record) => claimedRecordFromRow(codec, record)),
          ownerRemoved: claimed_owner_removed,
        };
      }
      const [claimed] = (await claimRun(executor, values)).rows;
      if (!claimed) return null;
      const { claimed_owner_removed, ...row } = claimed;
      return {
        execution: executionFromRow(codec, row),
        steps: row.flow_version_id === null ? await steps.listByFlow(row.flow_id) : null,
        recorded: await claimedRecordsOf(executor, row.id),
        ownerRemoved: Boolean(claimed_owner_removed),
      };
    },

    async renew(ids, lease) {
      if (ids.length === 0) return;
      await db
        .updateTable('executions')
        .set({ lease_until: codec.timestamp(lease.until) })
        .where('id', 'in', ids)
        .where('lease_owner', '=', lease.owner)
        .where('status', '=', 'running')
        .execute();
    },
  };
};
