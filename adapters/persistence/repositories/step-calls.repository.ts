import type { Selectable } from 'kysely';
import type { StepCall, StepCallKind, StepCallStatus } from '../../../core/domain/agent.js';
import type { StepCallRepository } from '../../../ports/agent-repositories.js';
import type { ExecutionStepCallsTable } from '../schema.js';
import type { Executor } from './executor.js';

/** An agent's model and tool calls, children of the execution step where it ran. */
export const createStepCallRepository = ({ db, codec }: Executor): StepCallRepository => {
  const json = (value: unknown) => (value === null || value === undefined ? null : codec.readJson<unknown>(value));
  const toCall = (row: Selectable<ExecutionStepCallsTable>): StepCall => ({
    id: row.id,
    executionId: row.execution_id,
    stepKey: row.step_key,
    stepId: row.step_id,
    seq: row.seq,
    kind: row.kind as StepCallKind,
    name: row.name,
    input: json(row.input),
    output: json(row.output),
    status: row.status as StepCallStatus,
    error: row.error,
    usage:
      row.input_tokens === null || row.output_tokens === null
        ? null
        : { inputTokens: codec.readInt(row.input_tokens), outputTokens: codec.readInt(row.output_tokens) },
    startedAt: codec.readTimestamp(row.started_at),
    finishedAt: row.finished_at === null ? null : codec.readTimestamp(row.finished_at),
  });
  const stored = (value: unknown) => (value === undefined || value === null ? null : codec.json(value));

  return {
    async insert(call) {
      const kept = await db
        .insertInto('execution_step_calls')
        .values({
          id: call.id,
          execution_id: call.executionId,
          step_key: call.stepKey,
          step_id: call.stepId,
          seq: call.seq,
          kind: call.kind,
          name: call.name,
          input: stored(call.input),
          output: stored(call.output),
          status: call.status,
          error: call.error,
          input_tokens: call.usage?.inputTokens ?? null,
          output_tokens: call.usage?.outputTokens ?? null,
          started_at: codec.timestamp(call.startedAt),
          finished_at: call.finishedAt === null ? null : codec.timestamp(call.finishedAt),
        })
        .onConflict((oc) => oc.columns(['execution_id', 'step_key', 'seq']).doNothing())
        .returning('id')
        .execute();
      return kept.length > 0;
    },

    async finish(id, changes) {
      await db
        .updateTable('execution_step_calls')
        .set({
          status: changes.status,
          output: stored(changes.output),
          error: changes.error,
          input_tokens: changes.usage?.inputTokens ?? null,
          output_tokens: changes.usage?.outputTokens ?? null,
          finished_at: changes.finishedAt === null ? null : codec.timestamp(changes.finishedAt),
        })
        .where('id', '=', id)
        .execute();
    },

    async listByStep(executionId, stepKey) {
      const rows = await db
        .selectFrom('execution_step_calls')
        .selectAll()
        .where('execution_id', '=', executionId)
        .where('step_key', '=', stepKey)
        .orderBy('seq')
        .execute();
      return rows.map(toCall);
    },

    async listByExecution(executionId) {
      const rows = await db
        .selectFrom('execution_step_calls')
        .selectAll()
        .where('execution_id', '=', executionId)
        .orderBy('started_at')
        .orderBy('seq')
        .execute();
      // Step by step, in the order each step first called, and each step's calls by seq.
      const byStep = new Map<string, StepCall[]>();
      for (const row of rows) {
        const calls = byStep.get(row.step_key) ?? [];
        calls.push(toCall(row));
        byStep.set(row.step_key, calls);
      }
      return [...byStep.values()].flatMap((calls) => calls.sort((a, b) => a.seq - b.seq));
    },
  };
};
