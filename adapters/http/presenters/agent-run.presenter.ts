import type { AgentExecutionDetail } from '../../../core/application/agents/agent-runs.js';
import type { AgentExecution, StepCall } from '../../../core/domain/agent.js';
import type { Answer } from '../schemas/resources.schemas.js';
import { epochMs } from './timestamp.js';

/** A step's call (an agent's model or tool call) as the API shows it. */
export const presentStepCall = (call: StepCall): Answer<'StepCall'> => ({
  id: call.id,
  executionId: call.executionId,
  stepId: call.stepId,
  stepKey: call.stepKey,
  seq: call.seq,
  kind: call.kind,
  name: call.name,
  input: call.input,
  output: call.output,
  status: call.status,
  error: call.error,
  usage: call.usage,
  startedAt: epochMs(call.startedAt),
  finishedAt: epochMs(call.finishedAt),
});

/** An agent's run; `flowExecutionId` is the flow's run it was a step of (Automatisch has none). */
export const presentAgentExecution = (run: AgentExecution): Answer<'AgentExecution'> => ({
  id: run.id,
  agentId: run.agentId,
  flowExecutionId: run.executionId,
  stepKey: run.stepKey,
  prompt: run.prompt,
  output: run.output,
  status: run.status,
  usage: run.usage,
  createdAt: epochMs(run.createdAt),
  updatedAt: epochMs(run.updatedAt),
  finishedAt: epochMs(run.finishedAt),
});

export const presentAgentExecutionDetail = (run: AgentExecutionDetail): Answer<'AgentExecutionDetail'> => ({
  ...presentAgentExecution(run),
  calls: run.calls.map(presentStepCall),
});
