import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The worker's code. It needs nothing but better-sqlite3, whose resolved path it is given, so it
 * runs as the same few lines from the TypeScript sources and from `dist/`.
 */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ failed: String(error && error.message) });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  // Nothing is left to keep the thread alive: it ends.
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Checkpoints once more and closes the worker's connection. */
  close(): Promise<void>;
}

/**
 * Copies the WAL back into the database file from a worker thread, every `intervalMs`. SQLite's
 * own checkpoint runs inside the commit that crosses `wal_autocheckpoint`, on the thread that
 * commits: on one process that is the event loop serving webhooks, which stalled for the length of
 * the copy and its fsync. A PASSIVE checkpoint never blocks the writer; the main connection keeps
 * a far higher `wal_autocheckpoint` as a backstop, should this thread fall behind or die.
 */
export const startCheckpointer = (
  path: string,
  options: { readonly intervalMs?: number; readonly onFailure?: (reason: string) => void } = {},
): Checkpointer => {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { driver, path, intervalMs: options.intervalMs ?? 1000 },
    // Inherited options (vitest's loaders) are for the main thread's modules, not this script.
    execArgv: [],
  });
  // Idle between checkpoints, it must not keep the process alive.
  worker.unref();
  worker.on('message', (message: { failed?: string }) => {
    if (message.failed) options.onFailure?.(message.failed);
  });
  worker.on('error', (error) => options.onFailure?.(error.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let closing: Promise<void> | null = null;
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
