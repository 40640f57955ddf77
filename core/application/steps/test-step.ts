import type { Actor } from '../../domain/actor.js';
import { appCallFailed, type DomainError, invalidInput } from '../../domain/errors.js';
import type { ExecutionStep } from '../../domain/execution.js';
import type { Step } from '../../domain/flow.js';
import { err, ok, type Result } from '../../domain/result.js';
import { runFlowTrigger, triggerTypeOf } from '../../engine/flow-triggers.js';
import { makeRunExecution } from '../../engine/run-execution.js';
import { startRuns } from '../../engine/start-runs.js';
import type { CoreDeps } from '../deps.js';
import { type StepView, stepView } from '../flows/flow-views.js';
import { loadStep } from '../flows/load-flow.js';

export interface TestedStep extends StepView {
  readonly lastExecutionStep: ExecutionStep | null;
}

/** When the trigger has nothing to test with yet: refuse (422), or answer the step without output. */
type NothingToTestWith = 'refuse' | 'answer';

/**
 * Runs the flow in test mode up to the step with the trigger's item: the run is recorded as a test
 * execution; the step becomes completed only when its own run succeeded.
 */
export const makeTestWithItem = (deps: CoreDeps) => {
  const run = makeRunExecution(deps);
  return async (flowId: string, trigger: Step, step: Step, item: unknown): Promise<TestedStep> => {
    const [executionId] = await startRuns(
      deps,
      {
        flowId,
        trigger,
        version: null,
        dataIn: trigger.parameters,
        items: [{ data: item }],
        testRun: true,
        untilStepId: step.id,
      },
      { enqueue: false, finished: step.id === trigger.id },
    );
    if (executionId && step.id !== trigger.id) await run(executionId, `test:${executionId}`);
    const result = executionId
      ? ((await deps.repos.executionSteps.listByExecution(executionId)).find((s) => s.stepId === step.id) ?? null)
      : null;

    const now = deps.clock.now();
    if (result?.status === 'success' && step.status !== 'completed') {
      await deps.uow.run(async (tx) => {
        await tx.steps.update(step.id, { status: 'completed' }, now);
        return ok(undefined);
      });
    }
    const current = (await deps.repos.steps.findById(step.id)) ?? step;
    return { ...stepView(deps.apps, current), lastExecutionStep: result };
  };
};

/** The draft's trigger of a step's flow, when its app and event are chosen. */
export const chosenTrigger = async (deps: Pick<CoreDeps, 'repos'>, flowId: string) => {
  const trigger = (await deps.repos.steps.listByFlow(flowId)).find((s) => s.type === 'trigger');
  return trigger?.appKey && trigger.key ? trigger : null;
};

export const CHOOSE_TRIGGER_FIRST = 'Choose the flow’s trigger first.';

/**
 * Runs the flow in test mode up to the step: the trigger's item is the last request its webhook
 * caught (or, for schedule and polling triggers, what the trigger gives now), then each action up
 * to this one.
 */
const makeStepTest = (deps: CoreDeps, nothingToTestWith: NothingToTestWith) => {
  const testWith = makeTestWithItem(deps);
  return async (actor: Actor, stepId: string): Promise<Result<TestedStep, DomainError>> => {
    const loaded = await loadStep(deps.repos, actor, stepId, 'manage');
    if (!loaded.ok) return loaded;
    const { step, flow } = loaded.value;
    const trigger = await chosenTrigger(deps, flow.id);
    if (!trigger) return err(invalidInput({ general: [CHOOSE_TRIGGER_FIRST] }));
    const nothing = (reason: string): Result<TestedStep, DomainError> =>
      nothingToTestWith === 'refuse'
        ? err(invalidInput({ general: [reason] }))
        : ok({ ...stepView(deps.apps, step), lastExecutionStep: null });

    let item: unknown;
    if (triggerTypeOf(deps, trigger) === 'webhook') {
      const caught = await deps.repos.executionSteps.latest(trigger.id);
      if (caught?.status !== 'success') {
        return nothing('Send a request to the flow’s webhook address first, then test again.');
      }
      item = caught.dataOut;
    } else {
      const outcome = await runFlowTrigger(deps, flow.id, trigger, null);
      if (outcome.kind === 'failure') return err(appCallFailed(outcome.failure.message));
      const first = outcome.items[0];
      if (!first) return nothing('The trigger found nothing to test with yet.');
      item = first.data;
    }
    return ok(await testWith(flow.id, trigger, step, item));
  };
};

export const makeTestStep = (deps: CoreDeps) => makeStepTest(deps, 'refuse');

/**
 * Automatisch's "Test & Continue": the same test, except that a trigger with nothing to test with
 * yet is answered with the step and no output (its client then says so), not refused.
 */
export const makeTestAndContinueStep = (deps: CoreDeps) => makeStepTest(deps, 'answer');
