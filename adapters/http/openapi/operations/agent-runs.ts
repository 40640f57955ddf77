import * as v from 'valibot';
import { agentTestSchema } from '../../schemas/executions.schemas.js';
import { RESOURCE_SCHEMAS } from '../../schemas/resources.schemas.js';
import { tagged } from '../operation.js';

export const AGENT_RUN_OPERATIONS = tagged('Agents', [
  {
    method: 'POST',
    path: '/agents/:agentId/test',
    summary: 'Run one of your agents on a conversation, outside any flow (flows and tools asking first left out)',
    access: 'signed in',
    permission: 'manage Agent',
    body: agentTestSchema,
    status: 200,
    answer: RESOURCE_SCHEMAS.AgentTestAnswer,
    returns: 'Object',
  },
  {
    method: 'GET',
    path: '/agents/:agentId/executions',
    summary: "Your agent's runs, newest first",
    access: 'signed in',
    permission: 'read Agent',
    paged: true,
    status: 200,
    answer: v.array(RESOURCE_SCHEMAS.AgentExecution),
    returns: 'AgentExecution',
  },
  {
    method: 'GET',
    path: '/agents/:agentId/executions/:executionId',
    summary: 'One run of your agent, with its model and tool calls',
    access: 'signed in',
    permission: 'read Agent',
    status: 200,
    answer: RESOURCE_SCHEMAS.AgentExecutionDetail,
    returns: 'AgentExecution',
  },
]);
