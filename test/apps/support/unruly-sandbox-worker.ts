import { runToJson } from '../../../adapters/apps/code/sandbox.js';
import { serveRuns } from '../../../adapters/apps/code/sandbox-protocol.js';

/**
 * The real sandbox worker, plus two failures user code cannot cause (the engine's interrupt and
 * memory bound hold), so that the pool's own defences can be seen working: a thread stuck outside
 * the engine, and a thread that dies mid-run.
 */
await serveRuns(async (request, limits) => {
  if (request.source === 'hang the thread') for (;;);
  if (request.source === 'end the thread') process.exit(7);
  return runToJson(request, limits);
});
