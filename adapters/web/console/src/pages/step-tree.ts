import type { Step, StructuralType } from '../types';

/**
 * A flow's steps as the tree the server keeps (docs/api.md, flows as trees): the trigger and the
 * steps at the top level, a paths step's branches, a branch's or a loop's steps. Positions are
 * flow-wide and depth-first, so they also order siblings.
 */

export const structuralTypeOf = (step: Pick<Step, 'structuralType'>): StructuralType => step.structuralType ?? 'single';
export const parentOf = (step: Pick<Step, 'parentStepId'>): string | null => step.parentStepId ?? null;

/** The steps directly inside `parentId` (null: the top level), in order. */
export const childrenOf = <S extends Pick<Step, 'parentStepId' | 'position'>>(
  steps: readonly S[],
  parentId: string | null,
): S[] => steps.filter((s) => parentOf(s) === parentId).sort((a, b) => a.position - b.position);

/** The step and every step inside it, at any depth. */
export const subtreeOf = (steps: readonly Step[], id: string): Step[] => {
  const found = steps.filter((s) => s.id === id);
  for (let at = 0; at < found.length; at += 1) {
    const parent = found[at];
    if (parent) found.push(...steps.filter((s) => parentOf(s) === parent.id && !found.includes(s)));
  }
  return found;
};

/** The steps a step sits inside, nearest first. */
export const ancestorsOf = (steps: readonly Step[], id: string): Step[] => {
  const byId = new Map(steps.map((s) => [s.id, s] as const));
  const chain: Step[] = [];
  let parent = byId.get(id)?.parentStepId ?? null;
  while (parent !== null) {
    const step = byId.get(parent);
    if (!step || chain.includes(step)) break;
    chain.push(step);
    parent = parentOf(step);
  }
  return chain;
};

/**
 * The steps whose output a step can read, as the server's previous-steps answer them: the steps it
 * sits inside and the earlier siblings of it and of each of them (not another branch, not the
 * inside of an earlier paths or loop step), in order of position.
 */
export const stepsBefore = (steps: readonly Step[], id: string): Step[] => {
  const step = steps.find((s) => s.id === id);
  if (!step) return [];
  const ancestors = ancestorsOf(steps, id);
  const visible = new Set(ancestors.map((s) => s.id));
  for (const at of [step, ...ancestors]) {
    if (structuralTypeOf(at) === 'branch') continue;
    for (const sibling of childrenOf(steps, parentOf(at))) if (sibling.position < at.position) visible.add(sibling.id);
  }
  return steps.filter((s) => visible.has(s.id)).sort((a, b) => a.position - b.position);
};

/** The loops a step runs inside, nearest first: their item and index are its to read. */
export const loopsAround = (steps: readonly Step[], id: string): Step[] =>
  ancestorsOf(steps, id).filter((s) => structuralTypeOf(s) === 'loop');

/**
 * Steps that between them are told every step's sample output by previous-steps: the last step of
 * each list (top level, each branch, each loop). Every other step is an earlier sibling or a parent
 * of one of them, and a last step that holds nothing is before no step.
 */
export const sampleAskers = (steps: readonly Step[]): Step[] => {
  const parents = new Set(steps.map(parentOf));
  return [...parents].flatMap((parent) => childrenOf(steps, parent).slice(-1));
};

/** A branch without conditions: taken when no other branch of its paths step is. */
export const isFallback = (step: Pick<Step, 'structuralType' | 'branchConditions'>): boolean =>
  structuralTypeOf(step) === 'branch' && (step.branchConditions ?? []).length === 0;

/** Where a step goes, as `POST /steps/:id/move` and `POST /flows/:id/steps` take it. */
export interface Place {
  readonly parentStepId: string | null;
  /** Null: first inside the parent. */
  readonly previousStepId: string | null;
}

/** A place a step may move to, and how the "move to" menu names it. */
export interface Destination {
  readonly label: string;
  readonly place: Place;
}

export const stepLabel = (step: Step): string => {
  const type = structuralTypeOf(step);
  const what =
    step.name ??
    (type === 'paths' ? 'Paths' : type === 'loop' ? 'Loop over items' : type === 'branch' ? 'Branch' : null) ??
    step.key ??
    step.appKey ??
    (step.type === 'trigger' ? 'Trigger' : 'Empty step');
  return `${step.position}. ${what}`;
};

/** Where a list is, for the "move to" menu: "the top level", "Branch 1 of 3. Paths", "4. Loop". */
const listName = (steps: readonly Step[], parent: Step | null): string => {
  if (!parent) return 'the top level';
  if (structuralTypeOf(parent) === 'branch') {
    const paths = steps.find((s) => s.id === parentOf(parent));
    return `branch "${parent.name ?? 'Branch'}"${paths ? ` of ${stepLabel(paths)}` : ''}`;
  }
  return `loop ${stepLabel(parent)}`;
};

/**
 * The places an ordinary, paths or loop step may move to: the start of each branch and loop, and
 * after each step of each list, never inside itself and never where it already is. A branch moves
 * only among its paths step's branches (up and down).
 */
export const destinationsOf = (steps: readonly Step[], step: Step): Destination[] => {
  if (step.type === 'trigger' || structuralTypeOf(step) === 'branch') return [];
  const inside = new Set(subtreeOf(steps, step.id).map((s) => s.id));
  const lists: Array<Step | null> = [
    null,
    ...steps.filter((s) => !inside.has(s.id) && ['branch', 'loop'].includes(structuralTypeOf(s))),
  ];
  const destinations: Destination[] = [];
  for (const parent of lists) {
    const parentId = parent?.id ?? null;
    const children = childrenOf(steps, parentId);
    const at = children.findIndex((s) => s.id === step.id);
    const name = listName(steps, parent);
    if (parent && at !== 0) {
      destinations.push({ label: `At the start of ${name}`, place: { parentStepId: parentId, previousStepId: null } });
    }
    children.forEach((sibling, index) => {
      if (sibling.id === step.id || (at >= 0 && index === at - 1)) return;
      destinations.push({
        label: `In ${name}, after ${stepLabel(sibling)}`,
        place: { parentStepId: parentId, previousStepId: sibling.id },
      });
    });
  }
  return destinations;
};

/** The place one up (`-1`) or down (`1`) among its siblings; null at an end (or above the trigger). */
export const shiftedPlace = (steps: readonly Step[], step: Step, by: -1 | 1): Place | null => {
  const parentId = parentOf(step);
  const siblings = childrenOf(steps, parentId);
  const at = siblings.findIndex((s) => s.id === step.id);
  const to = at + by;
  if (at < 0 || to < 0 || to >= siblings.length || siblings[to]?.type === 'trigger') return null;
  // Down: after the next sibling; up: after the one before the previous (or first in the parent).
  const previous = by === 1 ? siblings[to] : siblings[to - 1];
  return { parentStepId: parentId, previousStepId: previous?.id ?? null };
};
