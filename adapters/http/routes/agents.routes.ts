import { type Context, Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendMany, sendNoContent, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { pageQuery, sendPage } from '../pagination.js';
import { presentAgent, presentAgentTool } from '../presenters/agent.presenter.js';
import { unwrap } from '../respond.js';
import { agentChangesSchema, agentToolSchema, newAgentSchema } from '../schemas/agents.schemas.js';
import { idParam, jsonBody } from '../validation.js';

/** The caller's own agents and their tools (Automatisch's `/agents` routes). */
export const agentRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const may = requireAccess(deps);
  const id = (c: Context) => idParam(c, 'agentId', 'Agent');
  const manageAgent = may((c) => ({ to: 'agent', id: id(c), action: 'manage' }));
  return new Hono<AppEnv>()
    .use('/agents/*', requireActor(deps))
    .get('/agents', may({ to: 'permission', action: 'read', subject: 'Agent' }), async (c) => {
      const page = unwrap(await useCases.listAgents(c.var.actor, pageQuery(c)));
      return sendPage(c, 'Agent', page, presentAgent);
    })
    .post('/agents', may({ to: 'permission', action: 'manage', subject: 'Agent' }), async (c) => {
      const agent = unwrap(await useCases.createAgent(c.var.actor, await jsonBody(c, newAgentSchema)));
      return sendOne(c, 'Agent', presentAgent(agent), 201);
    })
    .get('/agents/:agentId', async (c) =>
      sendOne(c, 'Agent', presentAgent(unwrap(await useCases.getAgent(c.var.actor, id(c))))),
    )
    .patch('/agents/:agentId', manageAgent, async (c) => {
      const agentId = id(c);
      const agent = unwrap(await useCases.updateAgent(c.var.actor, agentId, await jsonBody(c, agentChangesSchema)));
      return sendOne(c, 'Agent', presentAgent(agent));
    })
    .delete('/agents/:agentId', async (c) => {
      unwrap(await useCases.deleteAgent(c.var.actor, id(c)));
      return sendNoContent(c);
    })
    .get('/agents/:agentId/tools', async (c) =>
      sendMany(c, 'AgentTool', unwrap(await useCases.listAgentTools(c.var.actor, id(c))).map(presentAgentTool)),
    )
    .post('/agents/:agentId/tools', manageAgent, async (c) => {
      const agentId = id(c);
      const tool = unwrap(await useCases.addAgentTool(c.var.actor, agentId, await jsonBody(c, agentToolSchema)));
      return sendOne(c, 'AgentTool', presentAgentTool(tool), 201);
    })
    .delete('/agents/:agentId/tools/:toolId', async (c) => {
      unwrap(await useCases.deleteAgentTool(c.var.actor, id(c), idParam(c, 'toolId', 'Tool')));
      return sendNoContent(c);
    });
};
