import { type Context, Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendMany, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { presentStepCall } from '../presenters/agent-run.presenter.js';
import { unwrap } from '../respond.js';
import { callApprovalSchema } from '../schemas/executions.schemas.js';
import { idParam, jsonBody } from '../validation.js';

/** The calls a run's steps made (an agent's model and tool calls), and a person's answer to one waiting for it. */
export const stepCallRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const id = (c: Context) => idParam(c, 'executionId', 'Execution');
  const may = requireAccess(deps);
  return new Hono<AppEnv>()
    .use('/executions/:executionId/calls', requireActor(deps))
    .use('/executions/:executionId/calls/*', requireActor(deps))
    .get('/executions/:executionId/calls', async (c) =>
      sendMany(c, 'StepCall', unwrap(await useCases.listStepCalls(c.var.actor, id(c))).map(presentStepCall)),
    )
    .post(
      '/executions/:executionId/calls/:callId/approval',
      may((c) => ({ to: 'execution', id: id(c) })),
      async (c) => {
        const executionId = id(c);
        const callId = idParam(c, 'callId', 'StepCall');
        // A call the caller may not answer, or that is not there, is said so before anything about the body.
        unwrap(await useCases.findStepCall(c.var.actor, executionId, callId));
        const { approved } = await jsonBody(c, callApprovalSchema);
        const call = unwrap(await useCases.answerStepCall(c.var.actor, executionId, callId, approved));
        return sendOne(c, 'StepCall', presentStepCall(call), 202);
      },
    );
};
