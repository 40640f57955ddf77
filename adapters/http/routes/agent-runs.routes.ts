import { type Context, Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { pageQuery, sendPage } from '../pagination.js';
import { presentAgentExecution, presentAgentExecutionDetail } from '../presenters/agent-run.presenter.js';
import { unwrap } from '../respond.js';
import { agentTestSchema } from '../schemas/executions.schemas.js';
import { idParam, jsonBody } from '../validation.js';

/** Runs of the caller's agents (Automatisch's test and executions routes of `/agents`). */
export const agentRunRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const may = requireAccess(deps);
  const id = (c: Context) => idParam(c, 'agentId', 'Agent');
  return new Hono<AppEnv>()
    .use('/agents/:agentId/test', requireActor(deps))
    .use('/agents/:agentId/executions', requireActor(deps))
    .use('/agents/:agentId/executions/*', requireActor(deps))
    .post(
      '/agents/:agentId/test',
      may((c) => ({ to: 'agent', id: id(c), action: 'manage' })),
      async (c) => {
        const agentId = id(c);
        const { messages } = await jsonBody(c, agentTestSchema);
        const answer = unwrap(await useCases.agentRuns.testAgent(c.var.actor, agentId, messages));
        return sendOne(c, 'Object', answer);
      },
    )
    .get(
      '/agents/:agentId/executions',
      may((c) => ({ to: 'agent', id: id(c), action: 'read' })),
      async (c) => {
        const page = unwrap(await useCases.agentRuns.listAgentExecutions(c.var.actor, id(c), pageQuery(c)));
        return sendPage(c, 'AgentExecution', page, presentAgentExecution);
      },
    )
    .get('/agents/:agentId/executions/:executionId', async (c) => {
      const executionId = idParam(c, 'executionId', 'AgentExecution');
      const run = unwrap(await useCases.agentRuns.getAgentExecution(c.var.actor, id(c), executionId));
      return sendOne(c, 'AgentExecution', presentAgentExecutionDetail(run));
    });
};
