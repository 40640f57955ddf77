import { conditionHolds, type Group } from './conditions.js';
import type { ErrorDetails } from './execution.js';
import type { BranchConditions, Step } from './flow.js';
import { type PathsMode, pathsModeOf } from './run-plan.js';
import { renderParameters, type StepOutputs } from './templating.js';

/**
 * What the engine does itself, with no app: a paths step chooses its branches, a loop reads its
 * items. Their records say what was chosen, so that a run taken up again walks the same way.
 */

/** The items a loop may have unless its own `maxItems` says fewer. */
export const DEFAULT_LOOP_ITEMS = 1_000;

export type Decided =
  | { readonly ok: true; readonly output: unknown }
  | { readonly ok: false; readonly error: ErrorDetails };

/** Whether a group list holds; an empty list is the fallback, which holds only when nothing else did. */
const holds = (groups: BranchConditions, outputs: StepOutputs): boolean => {
  const rendered = renderParameters({ groups }, outputs).groups as readonly Group[];
  return rendered.some((group) => group.and.length > 0 && group.and.every(conditionHolds));
};

/**
 * A paths step's branches to take, in order: `first` takes the first whose conditions hold, `all`
 * every one; the fallback branch (no conditions) when none holds.
 */
export const choosePaths = (paths: Step, branches: readonly Step[], outputs: StepOutputs): Decided => {
  const mode: PathsMode = pathsModeOf(paths.parameters);
  const conditional = branches.filter((branch) => (branch.branchConditions ?? []).length > 0);
  const matching = conditional.filter((branch) => holds(branch.branchConditions ?? [], outputs));
  const fallback = branches.find((branch) => (branch.branchConditions ?? []).length === 0);
  const chosen =
    matching.length > 0 ? (mode === 'first' ? matching.slice(0, 1) : matching) : fallback ? [fallback] : [];
  return {
    ok: true,
    output: { mode, taken: chosen.map((branch) => ({ id: branch.id, name: branch.name })) },
  };
};

const asCount = (value: unknown): number | null => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null;
};

/**
 * A loop's items: its `items` parameter rendered, as an array or the JSON text of one. More than its
 * `maxItems` (at most `cap`, the instance's limit) fails the loop rather than dropping any.
 */
export const loopItems = (loop: Step, outputs: StepOutputs, cap: number): Decided => {
  const rendered = renderParameters({ items: loop.parameters.items ?? '' }, outputs, new Set(['items'])).items;
  const items = typeof rendered === 'string' && rendered.trim() === '' ? [] : rendered;
  if (!Array.isArray(items)) {
    return {
      ok: false,
      error: { message: 'The loop’s items are not a list: give a list, or the JSON text of one.' },
    };
  }
  const own = asCount(loop.parameters.maxItems);
  const limit = Math.min(own ?? DEFAULT_LOOP_ITEMS, cap);
  if (items.length > limit) {
    return {
      ok: false,
      error: { message: `The loop has ${items.length} items, more than its limit of ${limit}.`, count: items.length },
    };
  }
  return { ok: true, output: { items, count: items.length } };
};
