import type { TriggerType } from './app.js';
import type { BranchConditions, Parameters, StepType, StructuralType } from './flow.js';
import { copySteps, type PlacedDefinition, webhookPath } from './flow-rules.js';

/** The bounds of a document, whichever adapter reads one (an HTTP body, a file given to the CLI). */
export const DOCUMENT_MAX_STEPS = 100;
export const STEP_ID_MAX_LENGTH = 100;

/** One step as an export carries it: no connection, no status, no owner. */
export interface ExportedStep {
  readonly id: string;
  readonly key: string | null;
  readonly name: string | null;
  readonly appKey: string | null;
  readonly type: StepType;
  readonly parameters: Parameters;
  readonly position: number;
  readonly webhookPath: string | null;
  /** Where it sits in the flow's tree; a document made before flows had one leaves them out (`single`, top level). */
  readonly structuralType?: StructuralType;
  readonly parentStepId?: string | null;
  readonly branchConditions?: BranchConditions | null;
}

/** A flow as a portable document (API.md §10); templates store one too. */
export interface ExportDocument {
  readonly id: string;
  readonly name: string;
  readonly steps: readonly ExportedStep[];
}

/**
 * The document of a flow under fresh ids, so that it gives away none of the stored ones, with
 * references between its steps following the new ids.
 */
export const exportDocument = (
  name: string,
  steps: readonly PlacedDefinition[],
  newId: () => string,
  triggerTypeOf: (step: PlacedDefinition) => TriggerType | undefined,
): ExportDocument => {
  const id = newId();
  return {
    id,
    name,
    steps: copySteps(steps, newId).map((step) => ({
      id: step.id,
      key: step.key,
      name: step.name,
      appKey: step.appKey,
      type: step.type,
      parameters: step.parameters,
      position: step.position,
      webhookPath: webhookPath(id, step, triggerTypeOf(step)),
      structuralType: step.structuralType,
      parentStepId: step.parentStepId,
      branchConditions: step.branchConditions,
    })),
  };
};

/** The steps a document describes, as definitions to copy (they have no connection). */
export const documentSteps = (document: ExportDocument): PlacedDefinition[] =>
  document.steps.map((step) => ({
    id: step.id,
    position: step.position,
    type: step.type,
    appKey: step.appKey,
    key: step.key,
    name: step.name,
    parameters: step.parameters,
    connectionId: null,
    structuralType: step.structuralType ?? 'single',
    parentStepId: step.parentStepId ?? null,
    branchConditions: step.branchConditions ?? null,
  }));
