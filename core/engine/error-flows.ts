import { errorMessage } from '../domain/errors.js';
import type { Execution } from '../domain/execution.js';
import type { Step } from '../domain/flow.js';
import type { EngineDeps } from './deps.js';
import { loadTriggered, runFlowTrigger } from './flow-triggers.js';
import { startRuns } from './start-runs.js';

/** The trigger of error flows: the `flows` app's. */
export const EXECUTION_FAILED = { appKey: 'flows', key: 'executionFailed' } as const;

const isErrorTrigger = (step: Pick<Step, 'appKey' | 'key'> | undefined) =>
  step?.appKey === EXECUTION_FAILED.appKey && step.key === EXECUTION_FAILED.key;

/** The flows one error flow watches: its `flowIds`, none meaning all its owner's flows. */
const watches = (trigger: Step, flowId: string): boolean => {
  const ids = trigger.parameters.flowIds;
  return !Array.isArray(ids) || ids.length === 0 || ids.includes(flowId);
};

/**
 * A run failed for good: every published error flow (trigger `flows.executionFailed`) of the flow's
 * owner that watches the flow gets a run with `{ flow, execution, step, error }`. Test runs start
 * none, and neither does the failure of an error flow (a failing error flow would feed itself).
 * What goes wrong here is logged, never thrown: the failed run has ended either way.
 */
export const startErrorFlows = async (
  deps: Pick<EngineDeps, 'repos' | 'uow' | 'ids' | 'clock' | 'apps' | 'runner' | 'queue' | 'logger'>,
  run: { readonly execution: Execution; readonly steps: ReadonlyMap<string, Step> },
  failed: { readonly stepId: string; readonly error: string } | null,
): Promise<void> => {
  const { execution, steps } = run;
  if (execution.testRun) return;
  if (isErrorTrigger([...steps.values()].find((step) => step.type === 'trigger'))) return;
  try {
    const flow = await deps.repos.flows.findById(execution.flowId);
    if (!flow) return;
    const candidates = await deps.repos.flows.list(
      { ownerId: flow.userId, appKey: EXECUTION_FAILED.appKey, active: true },
      { page: 1, perPage: 100 },
    );
    const step = failed ? steps.get(failed.stepId) : undefined;
    const event = {
      flow: { id: flow.id, name: flow.name },
      execution: { id: execution.id, startedAt: execution.createdAt.toISOString() },
      step: step ? { id: step.id, name: step.name, appKey: step.appKey, key: step.key, position: step.position } : null,
      error: { message: failed?.error ?? 'The run failed.' },
    };
    for (const candidate of candidates.items) {
      if (candidate.id === flow.id) continue;
      const loaded = await loadTriggered(deps, candidate.id);
      if (!loaded?.version || !isErrorTrigger(loaded.trigger) || !watches(loaded.trigger, flow.id)) continue;
      const request = { method: 'EVENT', headers: {}, query: {}, body: event };
      const outcome = await runFlowTrigger(deps, candidate.id, loaded.trigger, request);
      const items = outcome.kind === 'success' && outcome.items.length > 0 ? outcome.items : [{ data: event }];
      await startRuns(deps, {
        flowId: candidate.id,
        trigger: loaded.trigger,
        version: loaded.version,
        dataIn: loaded.trigger.parameters,
        items: items.slice(0, 1),
        testRun: false,
      });
    }
  } catch (error) {
    deps.logger.error({ executionId: execution.id, err: errorMessage(error) }, 'the error flows could not be started');
  }
};
