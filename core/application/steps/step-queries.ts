import type { Actor } from '../../domain/actor.js';
import type { Connection } from '../../domain/connection.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import type { ExecutionStep } from '../../domain/execution.js';
import { err, ok, type Result } from '../../domain/result.js';
import { stepsBefore } from '../../domain/step-tree.js';
import { authorize } from '../../policy/authorize.js';
import { makeGetConnection } from '../connections/get-connection.js';
import type { CoreDeps } from '../deps.js';
import { type StepView, stepView } from '../flows/flow-views.js';
import { loadStep } from '../flows/load-flow.js';

export interface PreviousStep extends StepView {
  /**
   * Its newest successful run: the sample output the editor's variable picker offers. Null, too,
   * for an actor who may read the flow but not its executions: the sample is a run's real data.
   */
  readonly lastExecutionStep: ExecutionStep | null;
}

/**
 * The steps before this one whose output it can read (`stepsBefore`: in a branch or a loop, the
 * steps it sits in and their earlier siblings, not the inside of another branch or loop): what
 * its parameters may take values from.
 */
export const makeGetPreviousSteps =
  ({ repos, apps }: Pick<CoreDeps, 'repos' | 'apps'>) =>
  async (actor: Actor, stepId: string): Promise<Result<PreviousStep[], DomainError>> => {
    const loaded = await loadStep(repos, actor, stepId, 'read');
    if (!loaded.ok) return loaded;
    const { step, flow } = loaded.value;
    const earlier = stepsBefore(await repos.steps.listByFlow(step.flowId), step.id);
    const mayReadRuns = authorize(actor, 'read', 'Execution', { ownerId: flow.userId }) === null;
    const samples = mayReadRuns ? await repos.executionSteps.latestSuccessful(earlier.map((s) => s.id)) : [];
    return ok(
      earlier.map((s) => ({ ...stepView(apps, s), lastExecutionStep: samples.find((e) => e.stepId === s.id) ?? null })),
    );
  };

/** The step's connection, when it has one the actor may read too. */
export const makeGetStepConnection =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  async (actor: Actor, stepId: string): Promise<Result<Connection, DomainError>> => {
    const loaded = await loadStep(repos, actor, stepId, 'read');
    if (!loaded.ok) return loaded;
    const { connectionId } = loaded.value.step;
    return connectionId ? makeGetConnection({ repos })(actor, connectionId) : err(notFound('Connection'));
  };
