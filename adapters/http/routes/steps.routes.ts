import { type Context, Hono } from 'hono';
import type { TestedStep } from '../../../core/application/steps/test-step.js';
import type { ExecutionStep } from '../../../core/domain/execution.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { ifMatch, tagRevision } from '../draft-revision.js';
import { sendMany, sendNoContent, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { presentConnection } from '../presenters/app.presenter.js';
import { presentExecutionStep } from '../presenters/execution.presenter.js';
import { flowPresenters } from '../presenters/flow.presenter.js';
import { unwrap } from '../respond.js';
import {
  dynamicDataSchema,
  dynamicFieldsSchema,
  moveStepSchema,
  stepChangesSchema,
  testEventSchema,
} from '../schemas/flows.schemas.js';
import { idParam, jsonBody } from '../validation.js';

export const stepRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const present = flowPresenters(deps.settings.publicUrl);
  const id = (c: Context) => idParam(c, 'stepId', 'Step');
  const sample = (step: ExecutionStep | null) => (step ? presentExecutionStep(step) : null);
  const manageStep = requireAccess(deps)((c) => ({ to: 'step', id: id(c), action: 'manage' }));
  /** A step with the output of its last run (null: none yet); test-and-continue and continue are Automatisch's. */
  const sendTested = (c: Context, tested: TestedStep) =>
    sendOne(c, 'Step', { ...present.step(tested), lastExecutionStep: sample(tested.lastExecutionStep) });
  return new Hono<AppEnv>()
    .use('/steps/*', requireActor(deps))
    .patch('/steps/:stepId', manageStep, async (c) => {
      const stepId = id(c);
      const input = await jsonBody(c, stepChangesSchema);
      const updated = unwrap(await useCases.updateStep(c.var.actor, stepId, input, ifMatch(c)));
      tagRevision(c, updated.draftRevision);
      return sendOne(c, 'Step', present.step(updated.value));
    })
    .post('/steps/:stepId/move', manageStep, async (c) => {
      const stepId = id(c);
      const input = await jsonBody(c, moveStepSchema);
      const moved = unwrap(await useCases.moveStep(c.var.actor, stepId, input, ifMatch(c)));
      tagRevision(c, moved.draftRevision);
      return sendOne(c, 'Step', present.step(moved.value));
    })
    .delete('/steps/:stepId', manageStep, async (c) => {
      tagRevision(c, unwrap(await useCases.deleteStep(c.var.actor, id(c), ifMatch(c))));
      return sendNoContent(c);
    })
    .get('/steps/:stepId/previous-steps', async (c) => {
      const steps = unwrap(await useCases.getPreviousSteps(c.var.actor, id(c)));
      return sendMany(
        c,
        'Step',
        steps.map((step) => ({ ...present.step(step), lastExecutionStep: sample(step.lastExecutionStep) })),
      );
    })
    .post('/steps/:stepId/test', manageStep, async (c) =>
      sendTested(c, unwrap(await useCases.testStep(c.var.actor, id(c)))),
    )
    .post('/steps/:stepId/test-event', manageStep, async (c) => {
      const stepId = id(c);
      const { timeoutSeconds } = await jsonBody(c, testEventSchema);
      const timeoutMs = timeoutSeconds === undefined ? undefined : timeoutSeconds * 1000;
      // The request's signal aborts when the client hangs up: the wait ends with it.
      const tested = unwrap(
        await useCases.waitForTestEvent(c.var.actor, stepId, { timeoutMs, signal: c.req.raw.signal }),
      );
      return tested ? sendTested(c, tested) : sendNoContent(c);
    })
    .post('/steps/:stepId/test-and-continue', manageStep, async (c) =>
      sendTested(c, unwrap(await useCases.testAndContinueStep(c.var.actor, id(c)))),
    )
    .post('/steps/:stepId/continue-without-test', manageStep, async (c) =>
      sendTested(c, unwrap(await useCases.continueStep(c.var.actor, id(c)))),
    )
    .get('/steps/:stepId/connection', async (c) =>
      sendOne(c, 'Connection', presentConnection(unwrap(await useCases.getStepConnection(c.var.actor, id(c))))),
    )
    .post('/steps/:stepId/dynamic-data', manageStep, async (c) => {
      const stepId = id(c);
      const { dynamicDataKey, parameters } = await jsonBody(c, dynamicDataSchema);
      const options = unwrap(await useCases.getDynamicData(c.var.actor, stepId, { key: dynamicDataKey, parameters }));
      return sendMany(c, 'Object', options);
    })
    .post('/steps/:stepId/dynamic-fields', manageStep, async (c) => {
      const stepId = id(c);
      const { dynamicFieldsKey, parameters } = await jsonBody(c, dynamicFieldsSchema);
      const fields = unwrap(
        await useCases.getDynamicFields(c.var.actor, stepId, { key: dynamicFieldsKey, parameters }),
      );
      return sendMany(c, 'Object', fields);
    });
};
