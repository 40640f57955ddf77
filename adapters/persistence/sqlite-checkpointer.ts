import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { packagedFiles } from '../packaged-files.js';

/**
 * The worker's code. It needs nothing but better-sqlite3, whose resolved path (and, in a packaged
 * program, its addon's) it is given, so it runs as the same few lines from the TypeScript sources,
 * from `dist/` and from the single executable.
 *
 * Each round is a PASSIVE checkpoint, which never blocks the writer. Under a steady stream of
 * commits it never finishes either: frames keep arriving behind it, and the WAL only starts over
 * when a write begins with every frame copied. So once the WAL holds `restartFrames`, the worker
 * asks the main thread to hold its writes, copies the few frames written meanwhile, and lets go.
 */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, workerData.addon ? { nativeBinding: workerData.addon } : {});
db.pragma('busy_timeout = 5000');
let timer = null;
const checkpoint = () => {
  try {
    return db.pragma('wal_checkpoint(PASSIVE)')[0];
  } catch (error) {
    parentPort.postMessage({ failed: String(error && error.message) });
    return null;
  }
};
const round = () => {
  const result = checkpoint();
  if (result && result.log >= workerData.restartFrames) parentPort.postMessage({ hold: true });
  else timer = setTimeout(round, workerData.intervalMs);
};
timer = setTimeout(round, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'held') {
    checkpoint();
    parentPort.postMessage({ release: true });
    timer = setTimeout(round, workerData.intervalMs);
  } else if (message === 'close') {
    clearTimeout(timer);
    checkpoint();
    db.close();
    // Nothing is left to keep the thread alive: it ends.
    parentPort.close();
  }
});
`;

export interface Checkpointer {
  /** Checkpoints once more and closes the worker's connection. */
  close(): Promise<void>;
}

export interface CheckpointerOptions {
  readonly intervalMs?: number;
  /** WAL frames (pages) past which the worker has writes held to finish its checkpoint. */
  readonly restartFrames?: number;
  /** Holds this process's writes until the returned function is called. */
  readonly holdWrites?: () => Promise<() => void>;
  readonly onFailure?: (reason: string) => void;
}

/** Longest the main thread holds its writes for the worker; a slower checkpoint finishes unheld. */
const HOLD_LIMIT_MS = 500;

/**
 * Copies the WAL back into the database file from a worker thread, every `intervalMs`. SQLite's
 * own checkpoint runs inside the commit that crosses `wal_autocheckpoint`, on the thread that
 * commits: on one process that is the event loop serving webhooks, which stalled for the length of
 * the copy and its fsync. The main connection keeps a far higher `wal_autocheckpoint` as a
 * backstop, should this thread fall behind or die.
 */
export const startCheckpointer = (path: string, options: CheckpointerOptions = {}): Checkpointer => {
  const packaged = packagedFiles();
  const driver = packaged?.sqliteDriver ?? createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: {
      driver,
      addon: packaged?.sqliteAddon,
      path,
      intervalMs: options.intervalMs ?? 250,
      // Without a way to hold writes, never ask for it.
      restartFrames: options.holdWrites ? (options.restartFrames ?? 1000) : Number.POSITIVE_INFINITY,
    },
    // Inherited options (vitest's loaders) are for the main thread's modules, not this script.
    execArgv: [],
  });
  // Idle between checkpoints, it must not keep the process alive.
  worker.unref();
  let closing: Promise<void> | null = null;
  let letGo = () => {};
  const hold = async () => {
    if (!options.holdWrites || closing) return;
    const release = await options.holdWrites();
    const limit = setTimeout(release, HOLD_LIMIT_MS).unref();
    letGo = () => {
      clearTimeout(limit);
      release();
    };
    worker.postMessage('held');
  };
  worker.on('message', (message: { failed?: string; hold?: boolean; release?: boolean }) => {
    if (message.failed) options.onFailure?.(message.failed);
    if (message.hold) hold().catch((error: unknown) => options.onFailure?.(String(error)));
    if (message.release) letGo();
  });
  worker.on('error', (error) => options.onFailure?.(error.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    close() {
      if (!closing) {
        // Closing is awaited: the process must not end before the worker's last checkpoint does.
        worker.ref();
        worker.postMessage('close');
        // A worker stuck in a long checkpoint is ended rather than waited for.
        const stuck = setTimeout(() => void worker.terminate(), 5000).unref();
        closing = exited.finally(() => clearTimeout(stuck));
      }
      return closing;
    },
  };
};
