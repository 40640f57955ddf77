import type { TriggerType } from './app.js';
import { type DomainError, incompleteSteps, insufficientSteps, invalidInput } from './errors.js';
import type { Step, StepDefinition, StepStatus, StepType } from './flow.js';

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

interface Placed {
  readonly id: string;
  readonly position: number;
}

const byPosition = <S extends Placed>(steps: readonly S[]): S[] =>
  [...steps].sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));

/** Positions 1..n in the given order, for the steps whose position is not that already. */
const moves = (current: readonly Placed[], order: readonly string[]): Placed[] =>
  order.flatMap((id, index) => {
    const position = index + 1;
    return current.find((s) => s.id === id)?.position === position ? [] : [{ id, position }];
  });

/** Where every step goes when a new one is put right after `previousId`; null if that is not a step here. */
export const placeAfter = (steps: readonly Placed[], previousId: string, newId: string): Placed[] | null => {
  const order = byPosition(steps).map((s) => s.id);
  const at = order.indexOf(previousId);
  if (at < 0) return null;
  order.splice(at + 1, 0, newId);
  return moves(steps, order);
};

/** The moves that close the gap a removed step leaves. */
export const closeGap = (steps: readonly Placed[], removedId: string): Placed[] =>
  moves(
    steps,
    byPosition(steps)
      .map((s) => s.id)
      .filter((id) => id !== removedId),
  );

/**
 * Why a flow cannot be published, if it cannot: it needs a trigger and an action, and every step
 * completed (`status` here is what the caller established, possibly re-checked against the apps).
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

export interface PlacedDefinition extends StepDefinition {
  readonly id: string;
  readonly position: number;
}

/** A step with nothing chosen yet: what a new flow starts with, and what "add a step" adds. */
export const emptyStep = (id: string, position: number, type: StepType): PlacedDefinition => ({
  id,
  position,
  type,
  appKey: null,
  key: null,
  name: null,
  connectionId: null,
  parameters: {},
});

/**
 * A copy of a flow's steps: fresh ids, positions 1..n in their order, and every reference to one
 * of them pointed at its copy (references to anything else are left as they are).
 */
export const copySteps = (steps: readonly PlacedDefinition[], newId: () => string): PlacedDefinition[] => {
  const ordered = byPosition(steps);
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
  }));
};

/** A flow is one trigger, first, then actions; ids name one step each. */
export const shapeRefusal = (steps: ReadonlyArray<Placed & { type: StepType }>): DomainError | null => {
  const ordered = byPosition(steps);
  if (ordered[0]?.type !== 'trigger') return invalidInput({ steps: ['The first step must be a trigger.'] });
  if (ordered.slice(1).some((s) => s.type !== 'action')) {
    return invalidInput({ steps: ['Only the first step may be a trigger.'] });
  }
  if (new Set(ordered.map((s) => s.id)).size !== ordered.length) {
    return invalidInput({ steps: ['Each step must have its own id.'] });
  }
  return null;
};
