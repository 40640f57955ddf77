import type { TriggerType } from './app.js';
import { type DomainError, incompleteSteps, insufficientSteps } from './errors.js';
import type { Step, StepDefinition, StepStatus, StepType } from './flow.js';
import { depthFirst } from './step-tree.js';

/** `{{step.<id>.` opens a reference to an earlier step's output; the id ends at the next dot. */
const REFERENCE = /(\{\{\s*step\.)([^.\s{}]+)\./g;
const ANY_REFERENCE = /\{\{\s*step\./;

/** Every `{{step.<oldId>.` in the value (at any depth) pointed at the new id the map gives. */
export const rewriteReferences = <T>(value: T, ids: ReadonlyMap<string, string>): T => {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (whole, head: string, id: string) => {
      const next = ids.get(id);
      return next === undefined ? whole : `${head}${next}.`;
    }) as T;
  }
  if (Array.isArray(value)) return value.map((item) => rewriteReferences(item, ids)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteReferences(v, ids)])) as T;
  }
  return value;
};

/** Whether the value (at any depth) takes something from an earlier step when the flow runs. */
export const containsReference = (value: unknown): boolean => {
  if (typeof value === 'string') return ANY_REFERENCE.test(value);
  if (Array.isArray(value)) return value.some(containsReference);
  if (value !== null && typeof value === 'object') return Object.values(value).some(containsReference);
  return false;
};

/**
 * Why a flow cannot be published, if it cannot: it needs a trigger and an action, and every step
 * completed, on every path and in every loop (`status` here is what the caller established,
 * possibly re-checked against the apps: a paths step and its branches are complete as they are,
 * a loop once its items are set).
 */
export const publishRefusal = (steps: ReadonlyArray<{ type: StepType; status: StepStatus }>): DomainError | null => {
  if (!steps.some((s) => s.type === 'trigger') || !steps.some((s) => s.type === 'action')) return insufficientSteps();
  return steps.some((s) => s.status !== 'completed') ? incompleteSteps() : null;
};

/** Where a webhook trigger listens; other steps have no address. */
export const webhookPath = (
  flowId: string,
  step: Pick<Step, 'type' | 'parameters'>,
  triggerType: TriggerType | undefined,
): string | null =>
  step.type === 'trigger' && triggerType === 'webhook'
    ? `/webhooks/flows/${flowId}${step.parameters.workSynchronously === true ? '/sync' : ''}`
    : null;

/** A step's definition where it sits in its flow's tree. */
export interface PlacedDefinition
  extends StepDefinition,
    Pick<Step, 'structuralType' | 'parentStepId' | 'branchConditions'> {
  readonly id: string;
  readonly position: number;
}

/** A step with nothing chosen yet, at the top level: what a new flow starts with. */
export const emptyStep = (id: string, position: number, type: StepType): PlacedDefinition => ({
  id,
  position,
  type,
  appKey: null,
  key: null,
  name: null,
  connectionId: null,
  parameters: {},
  structuralType: 'single',
  parentStepId: null,
  branchConditions: null,
});

/**
 * A copy of a flow's steps: fresh ids, positions 1..n depth-first, parents following their copies,
 * and every reference to one of them (in parameters and branch conditions) pointed at its copy
 * (references to anything else are left as they are).
 */
export const copySteps = (steps: readonly PlacedDefinition[], newId: () => string): PlacedDefinition[] => {
  const ordered = depthFirst(steps);
  const ids = new Map(ordered.map((s) => [s.id, newId()] as const));
  return ordered.map((s, index) => ({
    id: ids.get(s.id) ?? newId(),
    position: index + 1,
    type: s.type,
    appKey: s.appKey,
    key: s.key,
    name: s.name,
    connectionId: s.connectionId,
    parameters: rewriteReferences(s.parameters, ids),
    structuralType: s.structuralType,
    parentStepId: s.parentStepId === null ? null : (ids.get(s.parentStepId) ?? null),
    branchConditions: s.branchConditions === null ? null : rewriteReferences(s.branchConditions, ids),
  }));
};
