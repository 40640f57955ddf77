import { workerData } from 'node:worker_threads';
import { type PackagedFiles, usePackagedFiles } from '../../packaged-files.js';
import { runToJson } from './sandbox.js';
import { serveRuns } from './sandbox-protocol.js';

// The entry of a pool worker thread: sandbox-pool.ts starts this file, never imports it.
const packaged = (workerData as { packagedFiles?: PackagedFiles | null } | null)?.packagedFiles;
if (packaged) usePackagedFiles(packaged);
await serveRuns(runToJson);
