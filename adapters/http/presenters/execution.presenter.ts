import type { ExecutionDetail } from '../../../core/application/executions/execution-queries.js';
import type { ExecutionStep } from '../../../core/domain/execution.js';
import type { ExecutionWithFlow } from '../../../ports/execution-repositories.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export const presentExecutionStep = (step: ExecutionStep) => ({
  id: step.id,
  executionId: step.executionId,
  stepId: step.stepId,
  status: step.status,
  dataIn: step.dataIn,
  dataOut: step.dataOut,
  errorDetails: step.errorDetails,
  createdAt: step.createdAt.toISOString(),
});

export const presentExecution = (execution: ExecutionWithFlow) => ({
  id: execution.id,
  flowId: execution.flowId,
  status: execution.status,
  testRun: execution.testRun,
  retryOf: execution.retryOf,
  resumeAt: iso(execution.resumeAt),
  createdAt: execution.createdAt.toISOString(),
  updatedAt: execution.updatedAt.toISOString(),
  finishedAt: iso(execution.finishedAt),
  flow: { id: execution.flow.id, name: execution.flow.name },
});

export const presentExecutionDetail = (execution: ExecutionDetail) => ({
  ...presentExecution(execution),
  steps: execution.steps.map(presentExecutionStep),
});
