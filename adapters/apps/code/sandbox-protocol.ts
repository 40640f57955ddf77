import { parentPort } from 'node:worker_threads';
import { engineModule, type RunRequest, type SandboxLimits } from './sandbox.js';

/** What the pool sends a worker: one run at a time. */
export interface RunMessage {
  readonly request: RunRequest;
  readonly limits: SandboxLimits;
}

/** What a worker answers: that it can take runs, then one answer per run. */
export type WorkerMessage =
  | { readonly kind: 'ready' }
  | { readonly kind: 'done'; readonly json: string }
  | { readonly kind: 'failed'; readonly name: string; readonly message: string };

export type RunInThread = (request: RunRequest, limits: SandboxLimits) => Promise<string>;

/**
 * A worker's side of the pool. Errors cross as name and message only: a CodeError's message is
 * meant for the user, and nothing of the worker's stack should reach them.
 */
export const serveRuns = async (run: RunInThread) => {
  const port = parentPort;
  if (!port) throw new Error('The sandbox worker must run in a worker thread.');
  await engineModule();
  port.on('message', async ({ request, limits }: RunMessage) => {
    let answer: WorkerMessage;
    try {
      answer = { kind: 'done', json: await run(request, limits) };
    } catch (error) {
      answer =
        error instanceof Error
          ? { kind: 'failed', name: error.name, message: error.message }
          : { kind: 'failed', name: 'Error', message: String(error) };
    }
    port.postMessage(answer);
  });
  port.postMessage({ kind: 'ready' } satisfies WorkerMessage);
};
