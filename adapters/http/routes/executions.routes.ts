import { type Context, Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { pageQuery, sendPage } from '../pagination.js';
import { executionPresenters } from '../presenters/execution.presenter.js';
import { unwrap } from '../respond.js';
import { executionListQuery, retrySchema } from '../schemas/executions.schemas.js';
import { idParam, jsonBody, queryInput } from '../validation.js';

export const executionRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const id = (c: Context) => idParam(c, 'executionId', 'Execution');
  const may = requireAccess(deps);
  const present = executionPresenters(deps.settings.publicUrl);
  return new Hono<AppEnv>()
    .use('/executions', requireActor(deps))
    .use('/executions/*', requireActor(deps))
    .get('/executions', may({ to: 'permission', action: 'read', subject: 'Execution' }), async (c) => {
      const query = queryInput(c, executionListQuery);
      const page = unwrap(
        await useCases.listExecutions(
          c.var.actor,
          {
            name: query.name,
            status: query.status,
            flowId: query.flowId,
            from: query.startDateTime,
            to: query.endDateTime,
            flowVersion: query.flowVersion,
            q: query.q,
          },
          pageQuery(c),
        ),
      );
      return sendPage(c, 'Execution', page, present.execution);
    })
    .get('/executions/:executionId', async (c) =>
      sendOne(c, 'Execution', present.detail(unwrap(await useCases.getExecution(c.var.actor, id(c))))),
    )
    .get(
      '/executions/:executionId/execution-steps',
      may((c) => ({ to: 'execution', id: id(c) })),
      async (c) => {
        const executionId = id(c);
        const page = unwrap(await useCases.listExecutionSteps(c.var.actor, executionId, pageQuery(c)));
        return sendPage(c, 'ExecutionStep', page, present.executionStep);
      },
    )
    .post(
      '/executions/:executionId/retry',
      may((c) => ({ to: 'execution', id: id(c) })),
      async (c) => {
        const executionId = id(c);
        const input = await jsonBody(c, retrySchema);
        const retried = unwrap(await useCases.retryExecution(c.var.actor, executionId, input));
        return sendOne(c, 'Execution', present.detail(retried), 201);
      },
    );
};
