import type { Actor } from '../../domain/actor.js';
import { needsConnection } from '../../domain/app.js';
import { type DomainError, invalidInput, notFound } from '../../domain/errors.js';
import type { BranchConditions, Step, StepDefinition } from '../../domain/flow.js';
import { err, ok, type Result } from '../../domain/result.js';
import { pathsParameters, readBranchConditions, structureRefusal } from '../../domain/step-tree.js';
import { loadConnection } from '../connections/load-connection.js';
import type { CoreDeps } from '../deps.js';
import { type BasedOn, editDraft, type Revised } from '../flows/draft.js';
import { type StepView, stepView } from '../flows/flow-views.js';
import { loadStep } from '../flows/load-flow.js';
import { appVersionOf, evaluateStep, unknownAppOrKey } from './step-status.js';

/** What a client may change; a key left out keeps its value, `null` clears it. */
export interface StepInput {
  readonly appKey?: string | null | undefined;
  readonly key?: string | null | undefined;
  readonly name?: string | null | undefined;
  readonly connectionId?: string | null | undefined;
  readonly parameters?: Readonly<Record<string, unknown>> | undefined;
  readonly continueOnFailure?: boolean | undefined;
  /** A branch's conditions, as the client sent them (checked here); only a branch has them. */
  readonly branchConditions?: unknown;
}

const given = <T>(value: T | undefined, otherwise: T): T => (value === undefined ? otherwise : value);

/**
 * The step after the change. A new app drops the old app's key, connection and parameters, and a
 * new key drops the parameters, unless the same request gives them anew: they meant something
 * only for what they were chosen for.
 */
export const changedDefinition = (step: Step, input: StepInput): StepDefinition => {
  const appKey = given(input.appKey, step.appKey);
  const newApp = appKey !== step.appKey;
  const key = given(input.key, newApp ? null : step.key);
  const parameters = given(input.parameters, newApp || key !== step.key ? {} : step.parameters);
  return {
    type: step.type,
    appKey,
    key,
    name: given(input.name, step.name),
    connectionId: given(input.connectionId, newApp ? null : step.connectionId),
    parameters: step.structuralType === 'paths' ? pathsParameters(parameters) : parameters,
  };
};

/** The branch's new conditions; undefined when the input leaves them. */
const changedConditions = (step: Step, input: StepInput): Result<BranchConditions | null | undefined, DomainError> => {
  if (input.branchConditions === undefined) return ok(undefined);
  if (step.structuralType !== 'branch') {
    if (input.branchConditions === null) return ok(undefined);
    return err(
      invalidInput(
        { branchConditions: ['must be null: only a branch has conditions.'] },
        'invalidBranchConditionsError',
      ),
    );
  }
  return readBranchConditions(input.branchConditions);
};

/** A connection given for a step must be one the actor can see, of the step's app, which must use one. */
const connectionRefusal = async (
  deps: Pick<CoreDeps, 'repos' | 'apps'>,
  actor: Actor,
  next: StepDefinition,
): Promise<DomainError | null> => {
  if (next.connectionId === null) return null;
  const app = next.appKey === null ? null : deps.apps.find(next.appKey);
  if (!app || !needsConnection(app)) return invalidInput({ connectionId: ["is not used by this step's app."] });
  const connection = await loadConnection(deps.repos, actor, next.connectionId, 'read');
  if (!connection.ok) return connection.error;
  return connection.value.appKey === app.key ? null : invalidInput({ connectionId: ['belongs to another app.'] });
};

/**
 * Changes a step of a flow's draft. Every change re-checks the step against its app as it is now:
 * it is `completed` only if the new definition passes (see `evaluateStep`), and it records the
 * app version it was checked against. A change of its app, key or (a branch's) conditions is
 * checked against the flow's tree too (`structureRefusal`): a paths, branch or loop step keeps its
 * built-in action, a single step cannot become one, and a paths step has one fallback at most.
 */
export const makeUpdateStep =
  (deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'apps'>) =>
  async (
    actor: Actor,
    stepId: string,
    input: StepInput,
    basedOn?: BasedOn,
  ): Promise<Result<Revised<StepView>, DomainError>> => {
    const loaded = await loadStep(deps.repos, actor, stepId, 'manage');
    if (!loaded.ok) return loaded;
    const { step } = loaded.value;
    const next = changedDefinition(step, input);
    const unknown = unknownAppOrKey(deps.apps, next);
    if (unknown) return err(invalidInput(unknown));
    const conditions = changedConditions(step, input);
    if (!conditions.ok) return conditions;
    const refused = input.connectionId === undefined ? null : await connectionRefusal(deps, actor, next);
    if (refused) return err(refused);
    const now = deps.clock.now();
    const reshapes = next.appKey !== step.appKey || next.key !== step.key || conditions.value !== undefined;
    return deps.uow.run((tx) =>
      editDraft(
        tx,
        step.flowId,
        basedOn,
        now,
        async (draftRevision): Promise<Result<Revised<StepView>, DomainError>> => {
          if (reshapes) {
            const changed = { ...next, ...(conditions.value !== undefined && { branchConditions: conditions.value }) };
            const steps = await tx.steps.listByFlow(step.flowId);
            const tree = structureRefusal(steps.map((s) => (s.id === stepId ? { ...s, ...changed } : s)));
            if (tree) return err(tree);
          }
          await tx.steps.update(
            stepId,
            {
              ...next,
              status: evaluateStep(deps.apps, next),
              appVersion: appVersionOf(deps.apps, next.appKey),
              ...(input.continueOnFailure !== undefined && { continueOnFailure: input.continueOnFailure }),
              ...(conditions.value !== undefined && { branchConditions: conditions.value }),
            },
            now,
          );
          const updated = await tx.steps.findById(stepId);
          return updated ? ok({ value: stepView(deps.apps, updated), draftRevision }) : err(notFound('Step'));
        },
      ),
    );
  };
