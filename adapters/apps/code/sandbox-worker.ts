import { runToJson } from './sandbox.js';
import { serveRuns } from './sandbox-protocol.js';

// The entry of a pool worker thread: sandbox-pool.ts starts this file, never imports it.
await serveRuns(runToJson);
