import { OPERATORS } from './conditions.js';
import { type DomainError, type FieldErrors, type InputErrorType, invalidInput } from './errors.js';
import type { BranchConditions, Parameters, Step, StructuralType } from './flow.js';
import { err, ok, type Result } from './result.js';

/**
 * A flow is a tree (Automatisch's model): the trigger and the steps at the top level, in order; a
 * `paths` step holds `branch` steps, and a branch or a `loop` holds ordinary steps, which may be
 * paths and loops again. Positions stay flow-wide and depth-first: a step's own steps follow it,
 * so a flow's steps by position are the order its editor shows them, and `position` also orders
 * siblings. Every change of the tree goes through the functions here, which renumber 1..n.
 */

/**
 * The most paths and loop steps a step may sit inside (a branch is part of its paths step, so a
 * step in a branch of a paths step in a loop is two deep). Deeper flows are refused: nobody can
 * read them in an editor, and every level multiplies what one run may do.
 */
export const MAX_STEP_DEPTH = 6;

/** The built-in app and action each structural step is; the engine evaluates them itself. */
export const STRUCTURAL_ACTIONS = {
  paths: { appKey: 'branches', key: 'execute' },
  branch: { appKey: 'branches', key: 'executeBranch' },
  loop: { appKey: 'loop', key: 'loopOverItems' },
} as const satisfies Record<Exclude<StructuralType, 'single'>, { appKey: string; key: string }>;

const STRUCTURAL_APPS: ReadonlySet<string> = new Set(Object.values(STRUCTURAL_ACTIONS).map((a) => a.appKey));

/** `first`: the first branch whose conditions hold runs; `all`: every such branch runs, in order. */
export const PATHS_MODES = ['first', 'all'] as const;
export type PathsMode = (typeof PATHS_MODES)[number];

/** How many items a loop goes through unless its `maxItems` says otherwise. */
export const LOOP_DEFAULT_MAX_ITEMS = 1000;
/** The most a loop's `maxItems` may say. */
export const LOOP_ITEMS_LIMIT = 10_000;

/** Automatisch's `branchMode` values, as modes. */
const BRANCH_MODES: Readonly<Record<string, PathsMode>> = { conditional: 'first', parallel: 'all' };

/** A paths step's parameters with Automatisch's `branchMode` written as `mode` (a `mode` given wins). */
export const pathsParameters = (parameters: Parameters): Parameters => {
  if (!('branchMode' in parameters)) return parameters;
  const { branchMode, ...rest } = parameters;
  const mode = typeof branchMode === 'string' ? (BRANCH_MODES[branchMode] ?? branchMode) : branchMode;
  return rest.mode === undefined ? { ...rest, mode } : rest;
};

/** How a paths step runs its branches; `first` unless its parameters say `all`. */
export const pathsMode = (parameters: Parameters): PathsMode =>
  pathsParameters(parameters).mode === 'all' ? 'all' : 'first';

/** Where a step is in the tree. */
export type Link = Pick<Step, 'id' | 'position' | 'parentStepId'>;

/** What the tree's rules look at. */
export type TreeStep = Link & Pick<Step, 'type' | 'structuralType' | 'branchConditions' | 'appKey' | 'key'>;

const siblingOrder = (a: Link, b: Link) => a.position - b.position || a.id.localeCompare(b.id);

/**
 * The steps as the editor shows them: each followed by the steps inside it, siblings by position.
 * A step whose parent is not among them counts as top level; steps caught in a cycle come last.
 */
export const depthFirst = <S extends Link>(steps: readonly S[]): S[] => {
  const ids = new Set(steps.map((s) => s.id));
  const children = new Map<string | null, S[]>();
  for (const step of [...steps].sort(siblingOrder)) {
    const parent = step.parentStepId !== null && ids.has(step.parentStepId) ? step.parentStepId : null;
    const list = children.get(parent) ?? [];
    list.push(step);
    children.set(parent, list);
  }
  const ordered: S[] = [];
  const seen = new Set<string>();
  const visit = (parent: string | null) => {
    for (const step of children.get(parent) ?? []) {
      if (seen.has(step.id)) continue;
      seen.add(step.id);
      ordered.push(step);
      visit(step.id);
    }
  };
  visit(null);
  for (const step of [...steps].sort(siblingOrder)) if (!seen.has(step.id)) ordered.push(step);
  return ordered;
};

/** The step and every step inside it, at any depth: what moves or goes with it. */
export const subtreeIds = (steps: readonly Link[], id: string): string[] => {
  const ids = [id];
  for (let at = 0; at < ids.length; at += 1) {
    for (const step of steps) if (step.parentStepId === ids[at] && !ids.includes(step.id)) ids.push(step.id);
  }
  return ids;
};

/** The steps a step sits inside, nearest first (a cycle ends the walk). */
export const ancestorsOf = <S extends Link>(steps: readonly S[], id: string): S[] => {
  const byId = new Map(steps.map((s) => [s.id, s] as const));
  const chain: S[] = [];
  const seen = new Set([id]);
  let parent = byId.get(id)?.parentStepId ?? null;
  while (parent !== null && !seen.has(parent)) {
    const step = byId.get(parent);
    if (!step) break;
    chain.push(step);
    seen.add(parent);
    parent = step.parentStepId;
  }
  return chain;
};

/**
 * The steps whose output a step can read when it runs: those that may have run before it in the
 * same run (or the same loop iteration). That is the steps it sits inside, the earlier siblings of
 * it and of each of them (but not another branch), and the steps inside the branches of an earlier
 * paths step (whichever branch ran; a branch not taken leaves its steps' outputs empty). Not what is
 * inside an earlier loop: a step there ran once per item, and the loop's `results` hold them. In
 * order of position.
 */
export const stepsBefore = <S extends Link & Pick<Step, 'structuralType'>>(steps: readonly S[], id: string): S[] => {
  const step = steps.find((s) => s.id === id);
  if (!step) return [];
  const line = [step, ...ancestorsOf(steps, id)];
  const visible = new Set(line.slice(1).map((s) => s.id));
  const addWithBranches = (added: S) => {
    visible.add(added.id);
    if (added.structuralType !== 'paths' && added.structuralType !== 'branch') return;
    for (const child of steps) if (child.parentStepId === added.id) addWithBranches(child);
  };
  for (const at of line.filter((s) => s.structuralType !== 'branch')) {
    for (const sibling of steps) {
      if (sibling.parentStepId === at.parentStepId && siblingOrder(sibling, at) < 0) addWithBranches(sibling);
    }
  }
  return depthFirst(steps).filter((s) => visible.has(s.id));
};

/** Where a step goes: right after `previousStepId` in `parentStepId` (null: the top level), or first in it. */
export interface Place {
  readonly parentStepId: string | null;
  /** Null: the first step inside the parent. */
  readonly previousStepId: string | null;
}

/** A place as a client names it (`POST /flows/:flowId/steps`, `POST /steps/:stepId/move`). */
export interface PlaceInput {
  readonly previousStepId?: string | null | undefined;
  readonly parentStepId?: string | null | undefined;
}

/**
 * The place a client means: without `parentStepId`, next to `previousStepId` in the same parent;
 * with it, right after `previousStepId` (which must then sit directly in that parent), or first
 * in the parent when `previousStepId` is absent or is the parent itself.
 */
export const placeOf = (steps: readonly Link[], input: PlaceInput): Result<Place, DomainError> => {
  const byId = new Map(steps.map((s) => [s.id, s] as const));
  const previousId = input.previousStepId ?? null;
  const previous = previousId === null ? null : byId.get(previousId);
  if (previous === undefined) return err(invalidInput({ previousStepId: ['is not a step of this flow.'] }));
  if (input.parentStepId === undefined) {
    if (previous === null) return err(invalidInput({ previousStepId: ['is required unless parentStepId is given.'] }));
    return ok({ parentStepId: previous.parentStepId, previousStepId: previous.id });
  }
  const parentStepId = input.parentStepId;
  if (parentStepId !== null && !byId.has(parentStepId)) {
    return err(invalidInput({ parentStepId: ['is not a step of this flow.'] }));
  }
  if (previous === null || previous.id === parentStepId) {
    if (parentStepId === null) {
      return err(invalidInput({ previousStepId: ['is required at the top level: nothing goes before the trigger.'] }));
    }
    return ok({ parentStepId, previousStepId: null });
  }
  if (previous.parentStepId !== parentStepId) {
    return err(invalidInput({ previousStepId: ['is not a step directly inside parentStepId.'] }));
  }
  return ok({ parentStepId, previousStepId: previous.id });
};

type Lists = Map<string | null, string[]>;

/** Each parent's steps in order (the top level under null, with any step whose parent is missing). */
const listsOf = (steps: readonly Link[]): Lists => {
  const ids = new Set(steps.map((s) => s.id));
  const lists: Lists = new Map([[null, []]]);
  for (const step of depthFirst(steps)) {
    const parent = step.parentStepId !== null && ids.has(step.parentStepId) ? step.parentStepId : null;
    const list = lists.get(parent) ?? [];
    list.push(step.id);
    lists.set(parent, list);
  }
  return lists;
};

const putAt = (lists: Lists, place: Place, id: string) => {
  const list = lists.get(place.parentStepId) ?? [];
  const at = place.previousStepId === null ? 0 : list.indexOf(place.previousStepId) + 1;
  list.splice(at, 0, id);
  lists.set(place.parentStepId, list);
};

/** Every step with its parent and its position, 1..n depth-first. */
const flatten = (lists: Lists): Link[] => {
  const placed: Link[] = [];
  const visit = (parentStepId: string | null) => {
    for (const id of lists.get(parentStepId) ?? []) {
      placed.push({ id, parentStepId, position: placed.length + 1 });
      visit(id);
    }
  };
  visit(null);
  return placed;
};

/**
 * The flow's arrangement with new steps added at the place: the first of `added` goes there, the
 * others hang below it by their `parentStepId`, in their order of position.
 */
export const placeNew = (steps: readonly Link[], place: Place, added: readonly Link[]): Link[] => {
  const lists = listsOf(steps);
  const [top, ...below] = added;
  if (!top) return flatten(lists);
  putAt(lists, place, top.id);
  for (const step of [...below].sort(siblingOrder)) putAt(lists, lastOf(lists, step.parentStepId), step.id);
  return flatten(lists);
};

/** The place after the last step in a parent. */
const lastOf = (lists: Lists, parentStepId: string | null): Place => ({
  parentStepId,
  previousStepId: lists.get(parentStepId)?.at(-1) ?? null,
});

/** The flow's arrangement with a step (and everything inside it) moved to the place. */
export const placeMoved = (steps: readonly Link[], id: string, place: Place): Result<Link[], DomainError> => {
  if (place.parentStepId !== null && subtreeIds(steps, id).includes(place.parentStepId)) {
    return err(invalidInput({ parentStepId: ['cannot be the step itself or a step inside it.'] }));
  }
  const lists = listsOf(steps);
  if (place.previousStepId === id) return ok(flatten(lists));
  for (const list of lists.values()) {
    const at = list.indexOf(id);
    if (at >= 0) list.splice(at, 1);
  }
  putAt(lists, place, id);
  return ok(flatten(lists));
};

/** The flow's arrangement without a step and everything inside it, and the ids that go. */
export const placeWithout = (
  steps: readonly Link[],
  id: string,
): { readonly removed: string[]; readonly placed: Link[] } => {
  const removed = subtreeIds(steps, id);
  const gone = new Set(removed);
  return { removed, placed: flatten(listsOf(steps.filter((s) => !gone.has(s.id)))) };
};

/** The steps of `before` whose parent or position `after` changes, with their new ones. */
export const relinks = (before: readonly Link[], after: readonly Link[]): Link[] => {
  const was = new Map(before.map((s) => [s.id, s] as const));
  return after.filter((s) => {
    const old = was.get(s.id);
    return old !== undefined && (old.position !== s.position || old.parentStepId !== s.parentStepId);
  });
};

/** The steps with the arrangement's parents and positions. */
export const arranged = <S extends Link>(steps: readonly S[], placed: readonly Link[]): S[] => {
  const at = new Map(placed.map((s) => [s.id, s] as const));
  return steps.map((s) => {
    const link = at.get(s.id);
    return link ? { ...s, parentStepId: link.parentStepId, position: link.position } : s;
  });
};

/** Why a value is not a branch's conditions; null when it is. */
const conditionsProblem = (value: unknown): string | null => {
  const SHAPE = 'must be a list of groups, each {"and": [{"key", "operator", "value"}]}.';
  if (!Array.isArray(value)) return SHAPE;
  for (const group of value) {
    if (typeof group !== 'object' || group === null || !Array.isArray(group.and)) return SHAPE;
    if (group.and.length === 0) return 'has a group without conditions.';
    for (const condition of group.and as unknown[]) {
      if (typeof condition !== 'object' || condition === null) return SHAPE;
      const { key, operator, value: compared } = condition as Record<string, unknown>;
      if (!(OPERATORS as readonly unknown[]).includes(operator)) {
        return `has an unknown operator; use one of: ${OPERATORS.join(', ')}.`;
      }
      if ((key !== undefined && typeof key !== 'string') || (compared !== undefined && typeof compared !== 'string')) {
        return 'must have text keys and values (a variable such as {{step.<id>.status}} is text).';
      }
    }
  }
  return null;
};

/**
 * A branch's conditions as given by a client or a document, checked and with a missing key or
 * value as empty text (`is_empty` needs no value). An empty list is the fallback branch.
 */
export const readBranchConditions = (value: unknown): Result<BranchConditions, DomainError> => {
  const problem = conditionsProblem(value);
  if (problem) return err(invalidInput({ branchConditions: [problem] }, 'invalidBranchConditionsError'));
  return ok(
    (value as Array<{ and: Array<Record<string, unknown>> }>).map((group) => ({
      and: group.and.map((c) => ({
        key: (c.key as string | undefined) ?? '',
        operator: c.operator as string,
        value: (c.value as string | undefined) ?? '',
      })),
    })),
  );
};

/** A branch without conditions: taken when no other branch of its paths step is. */
export const isFallback = (step: Pick<Step, 'structuralType' | 'branchConditions'>): boolean =>
  step.structuralType === 'branch' && step.branchConditions?.length === 0;

/** One thing wrong with a tree: about a step's field, or about the steps as a whole (`stepId` null). */
export interface StructureProblem {
  readonly stepId: string | null;
  readonly field: string;
  readonly message: string;
  readonly type?: InputErrorType;
}

const PARENT_TYPE: InputErrorType = 'invalidParentStepStructuralTypeError';
const CONDITIONS_TYPE: InputErrorType = 'invalidBranchConditionsError';

/** What is wrong with one step where it sits. */
const stepProblems = (step: TreeStep, byId: ReadonlyMap<string, TreeStep>, steps: readonly TreeStep[]) => {
  const problems: StructureProblem[] = [];
  const add = (field: string, message: string, type?: InputErrorType) =>
    problems.push({ stepId: step.id, field, message, ...(type && { type }) });
  const parent = step.parentStepId === null ? null : byId.get(step.parentStepId);

  if (step.type === 'trigger' && step.structuralType !== 'single')
    add('structuralType', 'must be single for a trigger.');
  if (step.structuralType === 'single') {
    if (step.appKey !== null && STRUCTURAL_APPS.has(step.appKey)) {
      add('appKey', 'is added as a paths, branch or loop step (structuralType), not chosen for a single step.');
    }
  } else {
    const expected = STRUCTURAL_ACTIONS[step.structuralType];
    if (step.appKey !== expected.appKey || step.key !== expected.key) {
      add('appKey', `must be ${expected.appKey} with key ${expected.key} for a ${step.structuralType} step.`);
    }
  }

  if (parent === undefined) add('parentStepId', 'is not a step of this flow.');
  else if (parent !== null) {
    const ancestors = ancestorsOf(steps, step.id);
    if (step.parentStepId === step.id || ancestors.at(-1)?.parentStepId === step.id) {
      add('parentStepId', 'cannot be the step itself or a step inside it.');
    } else if (step.type === 'trigger') {
      add('parentStepId', 'must be null: the trigger is at the top level.', PARENT_TYPE);
    } else if (parent.structuralType === 'single') {
      add('parentStepId', 'must be a paths, branch or loop step: a single step holds no steps.', PARENT_TYPE);
    } else if (parent.structuralType === 'paths' && step.structuralType !== 'branch') {
      add('parentStepId', 'is a paths step, which holds only branches.', PARENT_TYPE);
    } else if (parent.structuralType !== 'paths' && step.structuralType === 'branch') {
      add('parentStepId', 'must be a paths step: a branch sits in a paths step.', PARENT_TYPE);
    } else if (ancestors.filter((a) => a.structuralType !== 'branch').length > MAX_STEP_DEPTH) {
      add('parentStepId', `is too deep: a step sits inside at most ${MAX_STEP_DEPTH} paths and loop steps.`);
    }
  }
  if (parent === null && step.structuralType === 'branch') {
    add('parentStepId', 'must be a paths step: a branch sits in a paths step.', PARENT_TYPE);
  }

  if (step.structuralType === 'branch') {
    const problem =
      step.branchConditions === null ? 'are required for a branch.' : conditionsProblem(step.branchConditions);
    if (problem) add('branchConditions', problem, CONDITIONS_TYPE);
    else if (
      isFallback(step) &&
      steps.some((s) => s.parentStepId === step.parentStepId && isFallback(s) && siblingOrder(s, step) < 0)
    ) {
      add('branchConditions', 'must not be empty: a paths step has at most one fallback branch.', CONDITIONS_TYPE);
    }
  } else if (step.branchConditions !== null) {
    add('branchConditions', 'must be null: only a branch has conditions.', CONDITIONS_TYPE);
  }
  return problems;
};

/**
 * Everything wrong with a flow's tree: one trigger, at the top level and first; ids unique;
 * parents among the steps and no step inside itself; a paths step holds only branches, a branch
 * sits only in a paths step, a branch or a loop holds ordinary steps, a single step holds none;
 * branch conditions well formed, at most one fallback branch per paths step; no step deeper than
 * `MAX_STEP_DEPTH`; structural steps are their built-in actions.
 */
export const structureProblems = (steps: readonly TreeStep[]): StructureProblem[] => {
  const problems: StructureProblem[] = [];
  const whole = (message: string) => problems.push({ stepId: null, field: 'steps', message });
  const ordered = depthFirst(steps);
  if (ordered[0]?.type !== 'trigger') whole('The first step must be a trigger.');
  else if (ordered.slice(1).some((s) => s.type !== 'action')) whole('Only the first step may be a trigger.');
  if (new Set(steps.map((s) => s.id)).size !== steps.length) {
    whole('Each step must have its own id.');
    return problems;
  }
  const byId = new Map(steps.map((s) => [s.id, s] as const));
  for (const step of ordered) problems.push(...stepProblems(step, byId, steps));
  return problems;
};

/**
 * The refusal of a tree's problems, or null when it has none: fields by `fieldOf` (the step's own
 * field by default), the type of the first problem that has one.
 */
export const structureRefusal = (
  steps: readonly TreeStep[],
  fieldOf: (problem: StructureProblem) => string = (p) => p.field,
): DomainError | null => {
  const problems = structureProblems(steps);
  if (problems.length === 0) return null;
  const fields: Record<string, string[]> = {};
  for (const problem of problems) {
    const field = problem.stepId === null ? problem.field : fieldOf(problem);
    const messages = fields[field] ?? [];
    if (!messages.includes(problem.message)) messages.push(problem.message);
    fields[field] = messages;
  }
  return invalidInput(fields as FieldErrors, problems.find((p) => p.type)?.type);
};

/** Conditions as stored: a missing key or value as empty text; anything else is left for `structureRefusal`. */
export const storedConditions = (value: BranchConditions | null): BranchConditions | null => {
  if (value === null) return null;
  const read = readBranchConditions(value);
  return read.ok ? read.value : value;
};

/** What a new branch's conditions are unless given: one condition to fill in, which holds only once its key is. */
export const NEW_BRANCH_CONDITIONS: BranchConditions = [{ and: [{ key: '', operator: 'is_not_empty', value: '' }] }];
/** The name of the fallback branch a new paths step comes with. */
export const FALLBACK_BRANCH_NAME = 'Otherwise';

/** A step a structure adds: its definition, and its parent among the added (null for the first). */
export interface AddedStep extends Link, Pick<Step, 'structuralType' | 'branchConditions' | 'name' | 'parameters'> {
  readonly appKey: string | null;
  readonly key: string | null;
}

export interface NewStructure {
  readonly structuralType: StructuralType;
  readonly name: string | null;
  /** For a branch; null: `NEW_BRANCH_CONDITIONS`. */
  readonly branchConditions: BranchConditions | null;
  /** How many branches its paths step has already (for a new branch's name). */
  readonly siblingBranches: number;
}

/**
 * The steps "add a step" adds, in order, the first on top: an empty single step; a loop with an
 * empty step inside; a branch ("Branch <n>") with an empty step inside; or a paths step (mode
 * `first`) with two branches, "Branch 1" (one condition to fill in) and the fallback "Otherwise",
 * each with an empty step inside.
 */
export const newStructure = (input: NewStructure, newId: () => string): AddedStep[] => {
  const added: AddedStep[] = [];
  const add = (
    parentStepId: string | null,
    structuralType: StructuralType,
    fields: Partial<Pick<AddedStep, 'name' | 'parameters' | 'branchConditions'>> = {},
  ): string => {
    const id = newId();
    const action = structuralType === 'single' ? { appKey: null, key: null } : STRUCTURAL_ACTIONS[structuralType];
    added.push({
      id,
      parentStepId,
      position: added.length + 1,
      structuralType,
      appKey: action.appKey,
      key: action.key,
      name: fields.name ?? null,
      parameters: fields.parameters ?? {},
      branchConditions: fields.branchConditions ?? null,
    });
    return id;
  };
  const branch = (parentStepId: string | null, name: string, conditions: BranchConditions) =>
    add(add(parentStepId, 'branch', { name, branchConditions: conditions }), 'single');
  switch (input.structuralType) {
    case 'single':
      add(null, 'single', { name: input.name });
      break;
    case 'loop':
      add(add(null, 'loop', { name: input.name }), 'single');
      break;
    case 'branch':
      branch(
        null,
        input.name ?? `Branch ${input.siblingBranches + 1}`,
        input.branchConditions ?? NEW_BRANCH_CONDITIONS,
      );
      break;
    case 'paths': {
      const paths = add(null, 'paths', { name: input.name, parameters: { mode: 'first' } });
      branch(paths, 'Branch 1', NEW_BRANCH_CONDITIONS);
      branch(paths, FALLBACK_BRANCH_NAME, []);
      break;
    }
  }
  return added;
};
