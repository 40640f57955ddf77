import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { packagedFiles } from '../../packaged-files.js';
import { CodeError, type RunRequest, type SandboxLimits, timeLimitError } from './sandbox.js';
import type { RunMessage, WorkerMessage } from './sandbox-protocol.js';

export interface SandboxPoolOptions {
  /** Worker threads running code at once. Default: two, or one on a single core. */
  readonly size?: number;
  /** Runs of one group that may wait for a worker; more are refused. A backstop against runaway fan-out. */
  readonly maxQueued?: number;
  /**
   * Workers one group (a flow) may hold at once. Default: all but one, so that a flow whose code
   * computes until its limit on every worker it can get still leaves one for the others.
   */
  readonly maxPerGroup?: number;
  /** How long past a run's time limit the main thread waits for its worker before ending it. */
  readonly graceMs?: number;
  /** The worker's module, .js or .ts; tests give one that misbehaves in ways user code cannot. */
  readonly workerUrl?: URL;
}

export interface RunOptions {
  readonly signal?: AbortSignal;
  /** Whose run it is (the flow's id): the pool shares its workers fairly between groups. */
  readonly group?: string;
}

export interface SandboxPool {
  /** The JSON value code(inputs) returned; a CodeError carries what the user should read. */
  run(request: RunRequest, limits: SandboxLimits, options?: RunOptions): Promise<unknown>;
  /** Ends the workers and refuses what waits. Idle workers never hold the process open, so it is optional. */
  close(): Promise<void>;
}

interface Job {
  readonly group: string;
  readonly message: RunMessage;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface Slot {
  readonly worker: Worker;
  state: 'starting' | 'idle' | 'busy';
  job: Job | null;
  timer: NodeJS.Timeout | null;
  failure: Error | null;
}

const STARTUP_MS = 30_000;

const defaultWorkerUrl = () => {
  const packaged = packagedFiles();
  if (packaged) return pathToFileURL(packaged.sandboxWorker);
  return new URL(import.meta.url.endsWith('.ts') ? './sandbox-worker.ts' : './sandbox-worker.js', import.meta.url);
};

/**
 * Compiled JavaScript starts as it is. TypeScript sources (vitest, tsx) need tsx's loader in the
 * worker, and on Node 20 a worker ignores `--import` while tsx does not register itself outside
 * the main thread; so a bootstrap registers it, then imports the entry.
 */
const startWorker = (url: URL) => {
  // A worker's modules are its own: it is told where a packaged program's files are.
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { workerData: { packagedFiles: packagedFiles() } });
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const bootstrap = `import(${tsx}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  // Inherited options (vitest's, or a newer Node's `--import tsx`) could load tsx a second time.
  return new Worker(bootstrap, { eval: true, execArgv: [] });
};

const firstLine = (error: Error | null) => error?.message.split('\n')[0] ?? 'the worker ended';

const rebuild = (message: Extract<WorkerMessage, { kind: 'failed' }>) =>
  message.name === 'CodeError'
    ? new CodeError(message.message)
    : Object.assign(new Error(message.message), { name: message.name });

/**
 * Runs code in worker threads, so that a run that computes until its limit holds one worker and
 * never the event loop that serves webhooks and other flows. Workers start when a run first needs
 * them. The time limit is kept twice: by the engine inside the worker, and here, by ending a worker
 * that has not answered a little after it, whatever it is stuck in.
 *
 * Runs wait in one line per group (flow). A free worker goes to the group that holds the fewest
 * workers, the longest-waiting group first among equals, and never to a group that holds
 * `maxPerGroup` already: one flow's runaway code takes its share of the workers, not all of them,
 * and the others' runs do not wait behind its line.
 */
export const createSandboxPool = (options: SandboxPoolOptions = {}): SandboxPool => {
  const size = Math.max(1, options.size ?? Math.min(2, availableParallelism()));
  const maxQueued = options.maxQueued ?? 1000;
  const maxPerGroup = Math.max(1, options.maxPerGroup ?? size - 1);
  const graceMs = options.graceMs ?? 1000;
  const workerUrl = options.workerUrl ?? defaultWorkerUrl();
  const slots: Slot[] = [];
  /** Waiting runs by group; a group goes to the end of the map's order each time it gets a worker. */
  const waiting = new Map<string, Job[]>();
  let closed = false;

  const held = (group: string) => slots.reduce((n, slot) => n + (slot.job?.group === group ? 1 : 0), 0);

  /** The group whose run goes next, or null when every waiting group holds its share. */
  const nextGroup = (): string | null => {
    let next: string | null = null;
    let fewest = maxPerGroup;
    for (const group of waiting.keys()) {
      const holds = held(group);
      if (holds < fewest) {
        next = group;
        fewest = holds;
      }
    }
    return next;
  };

  /** Takes the group's oldest run out of its line, and sends the group to the back of the turns. */
  const take = (group: string): Job | undefined => {
    const line = waiting.get(group);
    const job = line?.shift();
    waiting.delete(group);
    if (line?.length) waiting.set(group, line);
    return job;
  };

  /** Runs a worker could take now: each group's waiting runs up to what its share leaves. */
  const runnable = () => {
    let count = 0;
    for (const [group, line] of waiting) count += Math.min(line.length, Math.max(0, maxPerGroup - held(group)));
    return count;
  };

  /** Busy workers, and starting ones a run waits for, hold the process open like pending I/O. */
  const holdOpen = () => {
    const wanted = waiting.size > 0;
    for (const slot of slots) {
      if (slot.state === 'busy' || (slot.state === 'starting' && wanted)) slot.worker.ref();
      else slot.worker.unref();
    }
  };

  const pump = () => {
    for (;;) {
      const group = nextGroup();
      if (group === null) break;
      const idle = slots.find((slot) => slot.state === 'idle');
      if (idle) {
        const job = take(group);
        if (job) dispatch(idle, job);
        continue;
      }
      const starting = slots.filter((slot) => slot.state === 'starting').length;
      if (slots.length >= size || starting >= runnable()) break;
      spawn();
    }
    holdOpen();
  };

  const dispatch = (slot: Slot, job: Job) => {
    slot.state = 'busy';
    slot.job = job;
    const { limits } = job.message;
    slot.timer = setTimeout(() => retire(slot, timeLimitError(limits)), limits.timeoutMs + graceMs).unref();
    slot.worker.postMessage(job.message);
  };

  /** Ends a worker for good; the run it had (or, if it never started, the oldest waiting run) fails with `error`. */
  const retire = (slot: Slot, error: unknown) => {
    const index = slots.indexOf(slot);
    if (index < 0) return;
    slots.splice(index, 1);
    if (slot.timer) clearTimeout(slot.timer);
    void slot.worker.terminate();
    const started = slot.state !== 'starting';
    const next = started ? null : nextGroup();
    (slot.job ?? (next === null ? null : take(next)))?.reject(error);
    if (closed) return;
    // A worker that had started is replaced at once, so the next run does not wait for a new one;
    // one that failed to start is retried only for a run that needs it.
    if (started && slots.length < size) spawn();
    pump();
  };

  const answered = (slot: Slot, message: WorkerMessage) => {
    if (!slots.includes(slot)) return;
    if (slot.timer) clearTimeout(slot.timer);
    const job = slot.job;
    slot.state = 'idle';
    slot.job = null;
    slot.timer = null;
    if (message.kind === 'done') {
      try {
        job?.resolve(JSON.parse(message.json));
      } catch (error) {
        job?.reject(error);
      }
    } else if (message.kind === 'failed') {
      job?.reject(rebuild(message));
    }
    pump();
  };

  const spawn = () => {
    const slot: Slot = { worker: startWorker(workerUrl), state: 'starting', job: null, timer: null, failure: null };
    slots.push(slot);
    slot.timer = setTimeout(
      () => retire(slot, new Error('The code sandbox did not start in time.')),
      STARTUP_MS,
    ).unref();
    slot.worker.on('message', (message: WorkerMessage) => answered(slot, message));
    slot.worker.on('error', (error) => {
      slot.failure = error;
    });
    slot.worker.on('exit', () => {
      const cause = slot.failure ?? undefined;
      retire(
        slot,
        slot.state === 'starting'
          ? new Error(`The code sandbox could not start: ${firstLine(slot.failure)}`, { cause })
          : new Error('The code sandbox stopped unexpectedly; the run was not finished.', { cause }),
      );
    });
    holdOpen();
    return slot;
  };

  return {
    run: (request, limits, { signal, group = '' } = {}) =>
      new Promise((resolve, reject) => {
        signal?.throwIfAborted();
        if (closed) throw new Error('The code sandbox is closed.');
        // After every pump a group's line is empty or the group cannot have a worker now, so a full
        // line means a long wait.
        const line = waiting.get(group) ?? [];
        if (line.length >= maxQueued) {
          throw new Error(`Too many code steps are waiting to run (${maxQueued}); try again later.`);
        }
        const abort = () => {
          // A waiting run is in `line`: a group's line stays the same array while it has runs.
          const place = line.indexOf(job);
          if (place >= 0) {
            line.splice(place, 1);
            if (line.length === 0) waiting.delete(group);
            job.reject(signal?.reason);
          }
          const running = slots.find((slot) => slot.job === job);
          if (running) retire(running, signal?.reason);
        };
        const job: Job = {
          group,
          // Only what the worker needs, as plain data: the request may carry more.
          message: { request: { source: request.source, inputs: { ...request.inputs } }, limits: { ...limits } },
          resolve: (value) => {
            signal?.removeEventListener('abort', abort);
            resolve(value);
          },
          reject: (error) => {
            signal?.removeEventListener('abort', abort);
            reject(error);
          },
        };
        signal?.addEventListener('abort', abort, { once: true });
        line.push(job);
        if (!waiting.has(group)) waiting.set(group, line);
        pump();
      }),

    async close() {
      closed = true;
      const error = new Error('The code sandbox is closed.');
      const lines = [...waiting.values()];
      waiting.clear();
      for (const job of lines.flat()) job.reject(error);
      await Promise.all(
        slots.splice(0).map((slot) => {
          if (slot.timer) clearTimeout(slot.timer);
          slot.job?.reject(error);
          return slot.worker.terminate();
        }),
      );
    },
  };
};
