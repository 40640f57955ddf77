import type { ExecutionRepository } from '../../../ports/execution-repositories.js';
import { executionMaintenance } from './execution-maintenance.js';
import { executionQueries } from './execution-queries.js';
import type { Executor } from './executor.js';
import { runClaims } from './run-claims.js';
import { runMoves } from './run-moves.js';
import { runStarts } from './run-starts.js';
import { runWaits } from './run-waits.js';

/** Runs: started, claimed, moved on as the engine decides, read, and cleaned up. */
export const createExecutionRepository = (executor: Executor): ExecutionRepository => ({
  ...runStarts(executor),
  ...runClaims(executor),
  ...runMoves(executor),
  ...runWaits(executor),
  ...executionQueries(executor),
  ...executionMaintenance(executor),
});
