import type { ExecutionWithFlow } from '../../../ports/execution-repositories.js';
import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import type { ExecutionStatus, ExecutionStep } from '../../domain/execution.js';
import type { Page, PageRequest } from '../../domain/page.js';
import { err, ok, type Result } from '../../domain/result.js';
import { stepsOfRun } from '../../engine/version-steps.js';
import { authorize, scopeOf } from '../../policy/index.js';
import type { CoreDeps } from '../deps.js';
import { type FlowView, flowView, flowViews, type StepView, stepView, type ViewDeps } from '../flows/flow-views.js';
import { ownedRow } from '../load-owned.js';

export interface ExecutionListQuery {
  readonly name?: string | undefined;
  readonly status?: ExecutionStatus | undefined;
  readonly flowId?: string | undefined;
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
  /** The version number the runs ran. */
  readonly flowVersion?: number | undefined;
  /** Text found in any of the runs' records. */
  readonly q?: string | undefined;
}

/** An execution with its flow as clients see it, steps and all (Automatisch embeds `flow.steps`). */
export interface ExecutionView extends Omit<ExecutionWithFlow, 'flow'> {
  readonly flow: FlowView;
}

/**
 * A step's record with the step as the run ran it (its version's; a test run's, the draft's as it
 * is now), which clients need to show the record (its type, app and name); null when a test run's
 * step was deleted since (records outlive their steps).
 */
export interface ExecutionStepView extends ExecutionStep {
  readonly step: StepView | null;
}

export interface ExecutionDetail extends ExecutionView {
  readonly steps: readonly ExecutionStepView[];
}

type Deps = Pick<CoreDeps, 'repos' | 'apps'> & ViewDeps;

const withSteps = (records: readonly ExecutionStep[], steps: readonly StepView[]): ExecutionStepView[] =>
  records.map((record) => ({ ...record, step: steps.find((step) => step.id === record.stepId) ?? null }));

/** An execution the actor may `read` (as an Execution) — 404 for one of a flow they cannot see. */
export const loadExecution = async ({ repos }: Pick<Deps, 'repos'>, actor: Actor, executionId: string) => {
  const execution = await repos.executions.findById(executionId);
  return ownedRow(execution && { ...execution, userId: execution.flow.userId }, actor, 'read', 'Execution');
};

/** Newest first, only of flows the actor may read executions of; each flow's steps read once for the page. */
export const makeListExecutions =
  ({ repos, apps, billing }: Deps) =>
  async (
    actor: Actor,
    query: ExecutionListQuery,
    page: PageRequest,
  ): Promise<Result<Page<ExecutionView>, DomainError>> => {
    const refused = authorize(actor, 'read', 'Execution');
    if (refused) return err(refused);
    const scope = scopeOf(actor, 'read', 'Execution');
    const ownerId = scope.kind === 'own' ? actor.user.id : null;
    const executions = await repos.executions.list(
      {
        ownerId,
        flowName: query.name,
        status: query.status,
        flowId: query.flowId,
        from: query.from,
        to: query.to,
        flowVersion: query.flowVersion,
        dataContains: query.q,
      },
      page,
    );
    const flows = [...new Map(executions.items.map((e) => [e.flow.id, e.flow])).values()];
    const views = new Map((await flowViews(repos, { apps, billing }, flows)).map((view) => [view.id, view]));
    // flowViews answers a view for every flow it is given, so every execution finds its own.
    const flowOf = (flowId: string) => views.get(flowId) as FlowView;
    return ok({ ...executions, items: executions.items.map((e) => ({ ...e, flow: flowOf(e.flowId) })) });
  };

export const makeGetExecution =
  (deps: Deps) =>
  async (actor: Actor, executionId: string): Promise<Result<ExecutionDetail, DomainError>> => {
    const loaded = await loadExecution(deps, actor, executionId);
    if (!loaded.ok) return loaded;
    const [flow, records, ran] = await Promise.all([
      flowView(deps.repos, deps, loaded.value.flow),
      deps.repos.executionSteps.listByExecution(executionId),
      stepsOfRun(deps.repos, loaded.value),
    ]);
    const views = ran.map((step) => stepView(deps.apps, step));
    return ok({ ...loaded.value, flow, steps: withSteps(records, views) });
  };

/** Oldest first. */
export const makeListExecutionSteps =
  (deps: Deps) =>
  async (
    actor: Actor,
    executionId: string,
    page: PageRequest,
  ): Promise<Result<Page<ExecutionStepView>, DomainError>> => {
    const loaded = await loadExecution(deps, actor, executionId);
    if (!loaded.ok) return loaded;
    const [records, steps] = await Promise.all([
      deps.repos.executionSteps.page(executionId, page),
      stepsOfRun(deps.repos, loaded.value),
    ]);
    const views = steps.map((step) => stepView(deps.apps, step));
    return ok({ ...records, items: withSteps(records.items, views) });
  };
