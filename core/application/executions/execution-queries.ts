import type { ExecutionWithFlow } from '../../../ports/execution-repositories.js';
import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import type { ExecutionStatus, ExecutionStep } from '../../domain/execution.js';
import type { Page, PageRequest } from '../../domain/page.js';
import { err, ok, type Result } from '../../domain/result.js';
import { authorize, scopeOf } from '../../policy/index.js';
import type { CoreDeps } from '../deps.js';
import { ownedRow } from '../load-owned.js';

export interface ExecutionListQuery {
  readonly name?: string | undefined;
  readonly status?: ExecutionStatus | undefined;
  readonly flowId?: string | undefined;
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
}

export interface ExecutionDetail extends ExecutionWithFlow {
  readonly steps: readonly ExecutionStep[];
}

type Deps = Pick<CoreDeps, 'repos'>;

/** An execution the actor may `read` (as an Execution) — 404 for one of a flow they cannot see. */
export const loadExecution = async ({ repos }: Deps, actor: Actor, executionId: string) => {
  const execution = await repos.executions.findById(executionId);
  return ownedRow(execution && { ...execution, userId: execution.flow.userId }, actor, 'read', 'Execution');
};

/** Newest first, only of flows the actor may read executions of. */
export const makeListExecutions =
  ({ repos }: Deps) =>
  async (
    actor: Actor,
    query: ExecutionListQuery,
    page: PageRequest,
  ): Promise<Result<Page<ExecutionWithFlow>, DomainError>> => {
    const refused = authorize(actor, 'read', 'Execution');
    if (refused) return err(refused);
    const scope = scopeOf(actor, 'read', 'Execution');
    const ownerId = scope.kind === 'own' ? actor.user.id : null;
    return ok(
      await repos.executions.list(
        { ownerId, flowName: query.name, status: query.status, flowId: query.flowId, from: query.from, to: query.to },
        page,
      ),
    );
  };

export const makeGetExecution =
  (deps: Deps) =>
  async (actor: Actor, executionId: string): Promise<Result<ExecutionDetail, DomainError>> => {
    const loaded = await loadExecution(deps, actor, executionId);
    if (!loaded.ok) return loaded;
    return ok({ ...loaded.value, steps: await deps.repos.executionSteps.listByExecution(executionId) });
  };

/** Oldest first. */
export const makeListExecutionSteps =
  (deps: Deps) =>
  async (actor: Actor, executionId: string, page: PageRequest): Promise<Result<Page<ExecutionStep>, DomainError>> => {
    const loaded = await loadExecution(deps, actor, executionId);
    if (!loaded.ok) return loaded;
    return ok(await deps.repos.executionSteps.page(executionId, page));
  };
