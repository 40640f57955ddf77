import type { Actor } from '../../domain/actor.js';
import { type DomainError, invalidInput, notFound } from '../../domain/errors.js';
import type { BranchConditions, StructuralType } from '../../domain/flow.js';
import { err, ok, type Result } from '../../domain/result.js';
import {
  arranged,
  newStructure,
  type PlaceInput,
  placeNew,
  placeOf,
  readBranchConditions,
  structureRefusal,
} from '../../domain/step-tree.js';
import type { CoreDeps } from '../deps.js';
import { type BasedOn, editDraft, type Revised } from '../flows/draft.js';
import { type StepView, stepView } from '../flows/flow-views.js';
import { loadFlow } from '../flows/load-flow.js';
import { appVersionOf, evaluateStep } from './step-status.js';
import { writeArrangement } from './tree-writes.js';

/** Where a new step goes and what it is; see `placeOf` and `newStructure`. */
export interface NewStepInput extends PlaceInput {
  /** `single` unless given, or `branch` in a paths step. */
  readonly structuralType?: StructuralType | undefined;
  readonly name?: string | null | undefined;
  /** A branch's conditions, as the client sent them (checked here). */
  readonly branchConditions?: unknown;
}

const conditionsOf = (structuralType: StructuralType, given: unknown): Result<BranchConditions | null, DomainError> => {
  if (given === undefined || given === null) return ok(null);
  if (structuralType !== 'branch') {
    return err(
      invalidInput(
        { branchConditions: ['must be null: only a branch has conditions.'] },
        'invalidBranchConditionsError',
      ),
    );
  }
  return readBranchConditions(given);
};

/**
 * Adds a step to the flow's draft at the place given (see `placeOf`), with what its structural
 * type brings along (`newStructure`: a paths step its two branches, a branch or a loop an empty
 * step inside); the steps after it move down. Answers the step added on top.
 */
export const makeCreateStep =
  ({ repos, uow, clock, ids, apps }: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps'>) =>
  async (actor: Actor, flowId: string, input: NewStepInput, basedOn?: BasedOn) => {
    const loaded = await loadFlow(repos, actor, flowId, 'manage');
    if (!loaded.ok) return loaded;
    const now = clock.now();
    return uow.run((tx) =>
      editDraft(tx, flowId, basedOn, now, async (draftRevision): Promise<Result<Revised<StepView>, DomainError>> => {
        const steps = await tx.steps.listByFlow(flowId);
        const place = placeOf(steps, input);
        if (!place.ok) return place;
        const parent = steps.find((s) => s.id === place.value.parentStepId);
        const structuralType = input.structuralType ?? (parent?.structuralType === 'paths' ? 'branch' : 'single');
        const conditions = conditionsOf(structuralType, input.branchConditions);
        if (!conditions.ok) return conditions;
        const added = newStructure(
          {
            structuralType,
            name: input.name ?? null,
            branchConditions: conditions.value,
            siblingBranches: steps.filter((s) => s.parentStepId === parent?.id && s.structuralType === 'branch').length,
          },
          () => ids.next(),
        );
        const placed = placeNew(steps, place.value, added);
        const next = arranged([...steps, ...added.map((s) => ({ ...s, type: 'action' as const }))], placed);
        const refused = structureRefusal(next);
        if (refused) return err(refused);
        await writeArrangement(tx, steps, placed, now);
        const fresh = new Set(added.map((s) => s.id));
        await tx.steps.insert(
          next
            .filter((s) => fresh.has(s.id))
            .map((s) => {
              const definition = { ...s, connectionId: null };
              return {
                ...definition,
                flowId,
                status: evaluateStep(apps, definition),
                appVersion: appVersionOf(apps, s.appKey),
                now,
              };
            }),
        );
        const step = added[0] && (await tx.steps.findById(added[0].id));
        return step ? ok({ value: stepView(apps, step), draftRevision }) : err(notFound('Step'));
      }),
    );
  };
