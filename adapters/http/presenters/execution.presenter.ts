import type {
  ExecutionDetail,
  ExecutionStepView,
  ExecutionView,
} from '../../../core/application/executions/execution-queries.js';
import type { ExecutionStep } from '../../../core/domain/execution.js';
import type { Answer } from '../schemas/resources.schemas.js';
import { flowPresenters } from './flow.presenter.js';
import { epochMs } from './timestamp.js';

/** A step's record, as a step shows its own (`lastExecutionStep`): without the step again. */
export const presentExecutionStep = (record: ExecutionStep): Answer<'LastExecutionStep'> => ({
  id: record.id,
  executionId: record.executionId,
  stepId: record.stepId,
  status: record.status,
  dataIn: record.dataIn,
  dataOut: record.dataOut,
  errorDetails: record.errorDetails,
  parentStepId: record.parentStepId,
  branchId: record.branchId,
  iteration: record.iteration,
  scope: record.scope,
  createdAt: epochMs(record.createdAt),
  // Automatisch's records have both; a record here is written once and never changed.
  updatedAt: epochMs(record.createdAt),
});

/**
 * Executions as Automatisch's serializers show them: an execution embeds its flow with the flow's
 * steps, and each record embeds its step (`executionStep.step.type`, which Automatisch's client
 * reads), both in the shapes the flow routes answer.
 */
export const executionPresenters = (webhookBaseUrl: string) => {
  const present = flowPresenters(webhookBaseUrl);

  const executionStep = (record: ExecutionStepView): Answer<'ExecutionStep'> => ({
    ...presentExecutionStep(record),
    step: record.step && present.step(record.step),
  });

  const execution = (view: ExecutionView): Answer<'Execution'> => ({
    id: view.id,
    flowId: view.flowId,
    status: view.status,
    testRun: view.testRun,
    flowVersion: view.flowVersion,
    retryOf: view.retryOf,
    parentExecutionId: view.parentExecutionId,
    resumeAt: epochMs(view.resumeAt),
    createdAt: epochMs(view.createdAt),
    updatedAt: epochMs(view.updatedAt),
    finishedAt: epochMs(view.finishedAt),
    flow: present.flow(view.flow),
  });

  const detail = (view: ExecutionDetail): Answer<'ExecutionDetail'> => ({
    ...execution(view),
    steps: view.steps.map(executionStep),
  });

  return { execution, executionStep, detail };
};
