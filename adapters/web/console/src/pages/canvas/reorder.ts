import type { Step } from '../../types';
import { childrenOf, type Place, parentOf } from '../step-tree';

/**
 * Where a step dragged onto a sibling goes: into the sibling's place (after it when dragged down,
 * before it when dragged up), never above the trigger. Null when the drop moves nothing or the
 * two are not in the same list (a branch, a loop, the top level): dragging reorders one list.
 */
export const placeForDrop = (steps: readonly Step[], dragged: Step, target: Step): Place | null => {
  const parentStepId = parentOf(dragged);
  if (dragged.id === target.id || dragged.type === 'trigger' || parentOf(target) !== parentStepId) return null;
  const siblings = childrenOf(steps, parentStepId);
  const from = siblings.findIndex((s) => s.id === dragged.id);
  const to = siblings.findIndex((s) => s.id === target.id);
  if (from < 0 || to < 0) return null;
  const previous = to > from || target.type === 'trigger' ? target : (siblings[to - 1] ?? null);
  // Dropped on the trigger just below it: where it is already.
  if ((previous?.id ?? null) === (siblings[from - 1]?.id ?? null)) return null;
  return { parentStepId, previousStepId: previous?.id ?? null };
};
