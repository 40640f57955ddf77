import type { ClaimedRun } from '../../ports/execution-repositories.js';
import type { Step } from '../domain/flow.js';
import {
  decide,
  type RunContext,
  type RunEvent,
  type RunPlan,
  type RunState,
  type Transition,
} from '../domain/run-machine.js';
import { planOf } from '../domain/run-plan.js';
import type { EngineDeps } from './deps.js';
import { startErrorFlows } from './error-flows.js';
import { flowStore } from './flow-store.js';
import { EXECUTION_JOB } from './jobs.js';
import { resumeUrlOf } from './run-control.js';
import { announceRunEnd } from './run-end.js';
import { logRetry, logRunEnd, type RunTurn } from './run-log.js';
import { makePersistTransition, unstorableResult } from './run-persistence.js';
import { runStep, type StepTurn } from './run-step.js';
import { versionStepsOf } from './version-steps.js';
import { wakeRun } from './wake-run.js';

/** What became of a run after one turn of a worker. */
export type RunOutcome = 'finished' | 'waiting' | 'skipped';

/** The run as the state machine sees it, from what the claim read. */
const stateOf = ({ execution, recorded }: ClaimedRun): RunState => ({
  status: 'running',
  testRun: execution.testRun,
  untilStepId: execution.untilStepId,
  attempts: execution.stepAttempts,
  records: recorded.map((r) => ({
    stepId: r.stepId,
    scope: r.scope,
    status: r.status,
    output: r.dataOut,
    error: r.errorDetails,
    task: r.task,
  })),
});

interface Turn extends RunTurn {
  readonly plan: RunPlan;
  readonly steps: ReadonlyMap<string, Step>;
}

const runContext = ({ clock, settings, random }: EngineDeps): RunContext => ({
  now: clock.now(),
  backoff: settings.engine.backoff,
  random,
});

/**
 * Decides and persists a step's result. A result the database cannot store fails the step
 * instead (its input kept, unless that was what could not be stored).
 */
const makeSettle =
  (deps: EngineDeps, persist: ReturnType<typeof makePersistTransition>) =>
  async (turn: Turn, state: RunState, { event, parameters }: StepTurn) => {
    let transition = decide(turn.plan, state, event, runContext(deps));
    let dataIn: unknown = parameters;
    for (let tries = 0; ; tries++) {
      try {
        return { transition, saved: await persist(turn, state, transition, dataIn) };
      } catch (error) {
        if (tries >= 2) throw error;
        const details = unstorableResult(error);
        if (transition.record?.status === 'failure') dataIn = null;
        const failed: RunEvent = {
          kind: 'failed',
          stepId: event.stepId,
          ...(event.scope !== undefined && { scope: event.scope }),
          error: details,
          retryable: false,
        };
        transition = decide(turn.plan, state, failed, runContext(deps));
      }
    }
  };

/** Acts on a persisted decision that ends the turn; null when the run goes on with a step. */
const makeConclude =
  (deps: EngineDeps) =>
  async (turn: Turn, { move }: Transition, last: StepTurn | null) => {
    const { clock, queue, logger, repos } = deps;
    if (move.kind === 'finish') {
      const now = clock.now();
      logRunEnd(logger, turn, now, move.failed);
      announceRunEnd(deps, turn.execution, { status: move.status, failed: move.failed, finishedAt: now });
      // A run waiting for this one (it called it) goes on; a failure starts the owner's error flows.
      if (turn.execution.parentExecutionId) await wakeRun(deps, turn.execution.parentExecutionId);
      if (move.status === 'failure') await startErrorFlows(deps, turn, move.failed);
      return 'finished' as const;
    }
    if (move.kind === 'suspend') {
      const { execution } = turn;
      const at = await repos.executions.suspend(execution.id, move.until, execution.wakes, clock.now());
      await queue.send({ name: EXECUTION_JOB, payload: { executionId: execution.id }, startAfter: at });
      return 'waiting' as const;
    }
    if (move.kind === 'wait') {
      if (move.retry && last?.event.kind === 'failed') {
        const delayMs = move.until.getTime() - clock.now().getTime();
        logRetry(logger, turn, {
          stepId: last.event.stepId,
          attempts: move.attempts,
          delayMs,
          error: last.event.error.message,
        });
      }
      await queue.send({ name: EXECUTION_JOB, payload: { executionId: turn.execution.id }, startAfter: move.until });
      return 'waiting' as const;
    }
    if (move.kind === 'refuse') {
      logger.warn({ executionId: turn.execution.id, reason: move.reason }, 'the run refused its own move');
      return 'skipped' as const;
    }
    return null;
  };

/**
 * Carries a run from where it stands to its end, or to a pause (a delay, a retry after backoff).
 * The run's state machine (core/domain/run-machine.ts) decides every move; this loop runs the
 * steps it asks for and persists each decision before it acts on the next, so a run taken over
 * after a crash goes on from its last committed step and no finished step runs twice. A second
 * record of the same step (a worker that lost its lease) is refused by the database and ends the turn.
 */
export const makeRunExecution = (deps: EngineDeps) => {
  const { repos, clock, logger } = deps;
  const persist = makePersistTransition(deps);
  const settle = makeSettle(deps, persist);
  const conclude = makeConclude(deps);
  const context = () => runContext(deps);
  const versionSteps = versionStepsOf(repos);
  /** A run on a version walks the version's steps; a test run, the draft's as the claim read them. */
  const stepsOf = async ({ execution, steps }: ClaimedRun): Promise<readonly Step[]> => {
    if (steps) return steps;
    const version = execution.flowVersion && (await versionSteps(execution.flowVersion.id));
    // Retention never removes a version a run points to: only a broken database gets here.
    if (!version) throw new Error(`the version ${execution.flowVersion?.id} of run ${execution.id} is missing`);
    return version;
  };

  return async (executionId: string, workerId: string): Promise<RunOutcome> => {
    const claimedAt = clock.now();
    const lease = { owner: workerId, until: new Date(claimedAt.getTime() + deps.settings.engine.leaseMs) };
    const claimed = await repos.executions.claim(executionId, lease, claimedAt);
    if (!claimed) return 'skipped';
    const { execution } = claimed;
    const steps = await stepsOf(claimed);
    const turn: Turn = {
      execution,
      workerId,
      plan: planOf(steps),
      steps: new Map(steps.map((step) => [step.id, step])),
    };
    let state = stateOf(claimed);
    let transition = decide(turn.plan, state, { kind: claimed.ownerRemoved ? 'ownerRemoved' : 'resumed' }, context());
    await persist(turn, state, transition, null);
    if (claimed.ownerRemoved) {
      // Pending, waiting and retrying runs of a removed user's flows end here, at their next turn.
      logger.info({ executionId, flowId: execution.flowId }, 'run ended: the flow’s owner was removed');
      if (transition.move.kind === 'finish') {
        const { status, failed } = transition.move;
        announceRunEnd(deps, execution, { status, failed, finishedAt: clock.now() });
      }
      return 'finished';
    }
    const store = flowStore(repos, execution.flowId, clock);
    let resumeUrl: Promise<string> | undefined;
    const running = {
      execution,
      store,
      steps: turn.steps,
      resumeUrl: () => {
        resumeUrl ??= resumeUrlOf(deps, execution.id);
        return resumeUrl;
      },
    };
    let last: StepTurn | null = null;
    for (;;) {
      const ended = await conclude(turn, transition, last);
      if (ended) return ended;
      if (transition.move.kind !== 'run') return 'skipped';
      state = transition.state;
      const step = turn.steps.get(transition.move.stepId) as Step;
      last = await runStep(deps, running, step, transition.move);
      const settled = await settle(turn, state, last);
      if (!settled.saved) return 'skipped';
      transition = settled.transition;
    }
  };
};

export type RunExecution = ReturnType<typeof makeRunExecution>;
