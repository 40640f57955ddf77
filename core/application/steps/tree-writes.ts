import type { Repositories } from '../../../ports/repositories.js';
import { type Link, relinks } from '../../domain/step-tree.js';

/** Stores the parents and positions of the steps an arrangement moved (steps it adds are inserted by the caller). */
export const writeArrangement = async (
  tx: Repositories,
  before: readonly Link[],
  placed: readonly Link[],
  now: Date,
): Promise<void> => {
  for (const moved of relinks(before, placed)) {
    await tx.steps.update(moved.id, { position: moved.position, parentStepId: moved.parentStepId }, now);
  }
};
