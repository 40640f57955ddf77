import type { CalledRun, RunControl, StepRunRequest, StepStore } from '../../ports/step-runner.js';
import { type Execution, isFinished } from '../domain/execution.js';
import { runAgentStep } from './agent-run.js';
import type { EngineDeps } from './deps.js';
import { loadTriggered, runFlowTrigger } from './flow-triggers.js';
import { startRuns } from './start-runs.js';
import { stepsOfRun } from './version-steps.js';

type Deps = Pick<EngineDeps, 'repos' | 'uow' | 'ids' | 'clock' | 'apps' | 'runner' | 'queue' | 'logger' | 'settings'>;

type CallAnswer = { readonly ok: true; readonly executionId: string } | { readonly ok: false; readonly reason: string };

/** The trigger a flow must start with to be called by another: the `flows` app's. */
export const CALLED_BY_FLOW = { appKey: 'flows', key: 'calledByFlow' } as const;
/** The other trigger of callable flows: a flow an MCP client calls as a tool (the `mcp` app's), which an agent calls too. */
export const MCP_TOOL = { appKey: 'mcp', key: 'mcpTool' } as const;
const CALLABLE = [CALLED_BY_FLOW, MCP_TOOL];
/** The action whose output is what a called flow hands back. */
const RETURN_RESULT = { appKey: 'flows', key: 'returnResult' } as const;

/** The run's address for signals: `<public URL>/webhooks/runs/<id>/<token>`, its token made on first use. */
export const resumeUrlOf = async (deps: Pick<Deps, 'repos' | 'ids' | 'settings'>, executionId: string) => {
  const token = await deps.repos.executions.resumeToken(executionId, deps.ids.next());
  return `${deps.settings.engine.publicUrl.replace(/\/+$/, '')}/webhooks/runs/${executionId}/${token}`;
};

/**
 * What a called run hands back once it ended: the result of its `returnResult` step when that is
 * what ended it, else its last step's output; and why it failed, when it did.
 */
const calledRunOf = async (deps: Deps, run: Execution): Promise<CalledRun> => {
  const status = run.status;
  if (!isFinished(status)) return { executionId: run.id, status, result: null, error: null };
  const records = await deps.repos.executionSteps.listByExecution(run.id);
  const last = records.at(-1);
  if (status === 'failure') {
    const failed = [...records].reverse().find((record) => record.status === 'failure');
    return {
      executionId: run.id,
      status,
      result: null,
      error: failed?.errorDetails?.message ?? 'The called flow failed.',
    };
  }
  const steps = await stepsOfRun(deps.repos, run);
  const step = steps.find((s) => s.id === last?.stepId);
  const returned = step?.appKey === RETURN_RESULT.appKey && step.key === RETURN_RESULT.key;
  const output = [...records].reverse().find((record) => record.status === 'success')?.dataOut ?? null;
  const result = returned ? ((output as { result?: unknown } | null)?.result ?? null) : output;
  return { executionId: run.id, status, result, error: null };
};

/**
 * Starts the flow as a call of `callerKey` (a step where it runs, or one call of an agent's step),
 * once: asked again, it answers the same run.
 */
const callFlowAs = async (
  deps: Deps,
  execution: Execution,
  callerKey: string,
  flowId: string,
  input: Readonly<Record<string, unknown>>,
): Promise<CallAnswer> => {
  const { repos } = deps;
  const called = await repos.executions.findCalled(execution.id, callerKey);
  if (called) return { ok: true, executionId: called.id };
  if (execution.callDepth + 1 > deps.settings.engine.callDepthMax) {
    return { ok: false, reason: `Flows may call flows ${deps.settings.engine.callDepthMax} deep at most.` };
  }
  const [loaded, caller] = await Promise.all([loadTriggered(deps, flowId), repos.flows.findById(execution.flowId)]);
  // Another user's flow reads as missing: its existence is not the caller's to learn.
  if (!loaded || !caller || loaded.flow.userId !== caller.userId) {
    return { ok: false, reason: 'There is no such flow.' };
  }
  const { flow, trigger, version } = loaded;
  if (!flow.active || !version) return { ok: false, reason: `The flow “${flow.name}” is not published.` };
  if (!CALLABLE.some((t) => trigger.appKey === t.appKey && trigger.key === t.key)) {
    return { ok: false, reason: `The flow “${flow.name}” does not start with “Called by another flow”.` };
  }
  const outcome = await runFlowTrigger(deps, flow.id, trigger, {
    method: 'CALL',
    headers: {},
    query: {},
    body: input,
  });
  if (outcome.kind === 'failure') return { ok: false, reason: outcome.failure.message };
  const items = outcome.items.slice(0, 1);
  try {
    const [executionId] = await startRuns(deps, {
      flowId: flow.id,
      trigger,
      version,
      dataIn: trigger.parameters,
      items: items.length > 0 ? items : [{ data: input }],
      testRun: false,
      calledBy: { executionId: execution.id, stepKey: callerKey, depth: execution.callDepth + 1 },
    });
    if (executionId) return { ok: true, executionId };
  } catch (error) {
    // A worker that lost this run to another started the call already: that one stands.
    const again = await repos.executions.findCalled(execution.id, callerKey);
    if (again) return { ok: true, executionId: again.id };
    throw error;
  }
  return { ok: false, reason: 'The flow could not be started.' };
};

/**
 * The RunControl of one step where it runs (`stepKey`: its id and loop iterations): what it keeps,
 * the signals it takes and the run it calls are its own, so that running it again answers the same.
 */
export const makeRunControl = (
  deps: Deps,
  run: { readonly execution: Execution; readonly resumeUrl: () => Promise<string>; readonly store: StepStore },
  step: { readonly stepKey: string; readonly execution: NonNullable<StepRunRequest['execution']> },
): RunControl => {
  const { repos, ids, clock } = deps;
  const { execution } = run;
  const { stepKey } = step;
  const calledRun = async (executionId: string) => {
    const called = await repos.executions.findById(executionId);
    if (called?.parentExecutionId !== execution.id) return null;
    return calledRunOf(deps, called);
  };
  return {
    resumeUrl: run.resumeUrl,

    keep: async <T>(value: T) =>
      (await repos.runSignals.keep(execution.id, stepKey, value, ids.ordered(), clock.now())) as T,

    takeSignal: (kind) => repos.runSignals.take(execution.id, kind, stepKey),

    callFlow: (flowId, input) => callFlowAs(deps, execution, stepKey, flowId, input),

    calledRun,

    async runAgent(request) {
      const flow = await repos.flows.findById(execution.flowId);
      if (!flow) return { kind: 'failure', failure: { message: 'The flow is gone.', retryable: false } };
      return runAgentStep(
        deps,
        {
          execution: step.execution,
          stepKey,
          ownerId: flow.userId,
          store: run.store,
          // Each tool call of the agent calls its flow as a call of its own: `<step's key>#<seq>`.
          flows: {
            call: (key, flowId, input) => callFlowAs(deps, execution, `${stepKey}${key}`, flowId, input),
            state: calledRun,
          },
        },
        request,
      );
    },
  };
};
