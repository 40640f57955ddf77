import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Execution, ExecutionStatus } from '../../../core/domain/execution.js';
import type { AfterStep, ExecutionWithFlow, NewExecution } from '../../../ports/execution-repositories.js';
import type { Codec } from '../codec.js';
import type { ExecutionsTable, FlowsTable } from '../schema.js';
import { flowFromRow } from './flows.repository.js';

/** A run's row, its row with its flow's columns, and the updates that move a run on. */

export type ExecutionRow = Selectable<ExecutionsTable>;
type FlowRow = Selectable<FlowsTable>;
export type ExecutionRowWithFlow = ExecutionRow & {
  flow_user_id: FlowRow['user_id'];
  flow_folder_id: FlowRow['folder_id'];
  flow_name: FlowRow['name'];
  flow_active: FlowRow['active'];
  flow_published_at: FlowRow['published_at'];
  flow_published_version_id: FlowRow['published_version_id'];
  flow_published_version_number: FlowRow['published_version_number'];
  flow_draft_changed: FlowRow['draft_changed'];
  flow_draft_revision: FlowRow['draft_revision'];
  flow_created_at: FlowRow['created_at'];
  flow_updated_at: FlowRow['updated_at'];
};

/** The run's flow, read in the same statement as the run. */
export const FLOW_COLUMNS = [
  'flows.user_id as flow_user_id',
  'flows.folder_id as flow_folder_id',
  'flows.name as flow_name',
  'flows.active as flow_active',
  'flows.published_at as flow_published_at',
  'flows.published_version_id as flow_published_version_id',
  'flows.published_version_number as flow_published_version_number',
  'flows.draft_changed as flow_draft_changed',
  'flows.draft_revision as flow_draft_revision',
  'flows.created_at as flow_created_at',
  'flows.updated_at as flow_updated_at',
] as const;

export const executionFromRow = (codec: Codec, row: ExecutionRow): Execution => {
  const time = (value: Date | string | null) => (value === null ? null : codec.readTimestamp(value));
  return {
    id: row.id,
    flowId: row.flow_id,
    status: row.status as ExecutionStatus,
    testRun: codec.readBool(row.test_run),
    untilStepId: row.until_step_id,
    flowVersion:
      row.flow_version_id === null || row.flow_version_number === null
        ? null
        : { id: row.flow_version_id, number: row.flow_version_number },
    parentExecutionId: row.parent_execution_id ?? null,
    callDepth: row.call_depth ?? 0,
    wakes: row.wakes ?? 0,
    retryOf: row.retry_of,
    resumeAt: time(row.resume_at),
    stepAttempts: row.step_attempts,
    createdAt: codec.readTimestamp(row.created_at),
    updatedAt: codec.readTimestamp(row.updated_at),
    finishedAt: time(row.finished_at),
  };
};

export const executionWithFlowFromRow = (codec: Codec, row: ExecutionRowWithFlow): ExecutionWithFlow => ({
  ...executionFromRow(codec, row),
  flow: flowFromRow(codec, {
    id: row.flow_id,
    user_id: row.flow_user_id,
    folder_id: row.flow_folder_id,
    name: row.flow_name,
    active: row.flow_active,
    published_at: row.flow_published_at,
    published_version_id: row.flow_published_version_id,
    published_version_number: row.flow_published_version_number,
    draft_base_version_id: null,
    draft_changed: row.flow_draft_changed,
    draft_revision: row.flow_draft_revision,
    file_key: null,
    created_at: row.flow_created_at,
    updated_at: row.flow_updated_at,
  }),
});

export const newExecutionRow = (codec: Codec, execution: NewExecution): Insertable<ExecutionsTable> => {
  const now = codec.timestamp(execution.now);
  return {
    id: execution.id,
    flow_id: execution.flowId,
    status: 'running',
    test_run: codec.bool(execution.testRun),
    until_step_id: execution.untilStepId,
    retry_of: execution.retryOf,
    flow_version_id: execution.flowVersion?.id ?? null,
    flow_version_number: execution.flowVersion?.number ?? null,
    parent_execution_id: execution.calledBy?.executionId ?? null,
    parent_step_key: execution.calledBy?.stepKey ?? null,
    call_depth: execution.calledBy?.depth ?? 0,
    resume_at: null,
    lease_owner: null,
    lease_until: null,
    created_at: now,
    updated_at: now,
    finished_at: null,
  };
};

export const waitingUpdate = (
  codec: Codec,
  resumeAt: Date,
  stepAttempts: number,
  now: Date,
): Updateable<ExecutionsTable> => ({
  status: 'waiting',
  resume_at: codec.timestamp(resumeAt),
  step_attempts: stepAttempts,
  lease_owner: null,
  lease_until: null,
  updated_at: codec.timestamp(now),
});

const advancedUpdate = (codec: Codec, now: Date): Updateable<ExecutionsTable> => ({
  step_attempts: 0,
  updated_at: codec.timestamp(now),
});

export const finishedUpdate = (codec: Codec, status: 'success' | 'failure', now: Date): Updateable<ExecutionsTable> => {
  const at = codec.timestamp(now);
  return { status, lease_owner: null, lease_until: null, resume_at: null, updated_at: at, finished_at: at };
};

/** The run's columns after a step's record; null when nothing about the run changes. */
export const afterStepUpdate = (codec: Codec, next: AfterStep, now: Date): Updateable<ExecutionsTable> | null => {
  if (next.kind === 'finish') return finishedUpdate(codec, next.status, now);
  if (next.kind === 'wait') return waitingUpdate(codec, next.resumeAt, 0, now);
  return next.resetAttempts ? advancedUpdate(codec, now) : null;
};
