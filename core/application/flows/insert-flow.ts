import type { AppCatalog } from '../../../ports/app-catalog.js';
import type { Repositories } from '../../../ports/repositories.js';
import { type DomainError, invalidInput } from '../../domain/errors.js';
import { documentSteps, type ExportDocument } from '../../domain/export-document.js';
import { copySteps, type PlacedDefinition } from '../../domain/flow-rules.js';
import { err, ok, type Result } from '../../domain/result.js';
import { pathsParameters, structureRefusal } from '../../domain/step-tree.js';
import type { CoreDeps } from '../deps.js';
import { appVersionOf, evaluateStep, unknownAppOrKey } from '../steps/step-status.js';
import { type FlowView, flowView, type ViewDeps } from './flow-views.js';

type Deps = Pick<CoreDeps, 'apps' | 'ids' | 'clock'> & Pick<ViewDeps, 'billing'>;

export interface FlowDraft {
  readonly ownerId: string;
  readonly name: string;
  readonly folderId: string | null;
  /** Already under their new ids and positions. */
  readonly steps: readonly PlacedDefinition[];
}

/** Stores a new, unpublished flow with its steps, each step's status worked out from its definition. */
export const insertFlow = async (tx: Repositories, deps: Deps, draft: FlowDraft): Promise<FlowView> => {
  const now = deps.clock.now();
  const flow = await tx.flows.insert({
    id: deps.ids.next(),
    userId: draft.ownerId,
    name: draft.name,
    folderId: draft.folderId,
    now,
  });
  await tx.steps.insert(
    draft.steps.map((step) => ({
      ...step,
      flowId: flow.id,
      status: evaluateStep(deps.apps, step),
      appVersion: appVersionOf(deps.apps, step.appKey),
      now,
    })),
  );
  return flowView(tx, deps, flow);
};

/** Every step of a document names an app and key the catalog has (or none yet). */
const unknownDefinitions = (apps: AppCatalog, steps: readonly PlacedDefinition[]): DomainError | null => {
  const fields = Object.fromEntries(
    steps.flatMap((step, index) =>
      Object.entries(unknownAppOrKey(apps, step) ?? {}).map(([field, messages]) => [
        `steps.${index}.${field}`,
        messages,
      ]),
    ),
  );
  return Object.keys(fields).length > 0 ? invalidInput(fields) : null;
};

/**
 * The steps of a document, checked and under fresh ids, ready to insert as a new flow: a tree the
 * rules of step-tree.ts accept (the first step the one trigger), and the apps and keys must exist
 * here. Positions become depth-first whatever the document says.
 */
export const stepsFromDocument = (
  deps: Pick<CoreDeps, 'apps' | 'ids'>,
  document: ExportDocument,
): Result<PlacedDefinition[], DomainError> => {
  const steps = documentSteps(document).map((step) =>
    step.structuralType === 'paths' ? { ...step, parameters: pathsParameters(step.parameters) } : step,
  );
  const index = new Map(steps.map((step, at) => [step.id, at] as const));
  const refused =
    structureRefusal(steps, (problem) => `steps.${index.get(problem.stepId ?? '')}.${problem.field}`) ??
    unknownDefinitions(deps.apps, steps);
  return refused ? err(refused) : ok(copySteps(steps, () => deps.ids.next()));
};
