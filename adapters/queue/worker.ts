import { errorMessage } from '../../core/domain/errors.js';
import type { Job, JobHandler } from '../../ports/job-queue.js';
import type { Logger } from '../../ports/logger.js';

/** What a worker needs from where the jobs are stored: the local tables, or pg-boss. */
export interface JobStore {
  /** Leases up to `limit` due jobs of `name` to this worker, in one statement. */
  claim(name: string, limit: number): Promise<Job[]>;
  /** Marks handled jobs done, all at once. */
  complete(name: string, ids: readonly string[]): Promise<void>;
  /** Records a handler's failure: the job waits for its retry, or is kept as failed when `final`. */
  fail(job: Job, message: string, final: boolean): Promise<{ readonly retryAtMs: number | null }>;
  /** Extends the leases of running jobs; absent where the store cannot (pg-boss). */
  heartbeat?(name: string, ids: readonly string[]): Promise<void>;
  /** Gives back jobs still running when stop's time limit passed. */
  release(name: string, jobs: readonly Job[]): Promise<void>;
}

export interface WorkerSettings {
  readonly concurrency: number;
  readonly maxAttempts: number;
  readonly pollIntervalMs: number;
  readonly heartbeatIntervalMs: number;
  readonly stopTimeoutMs: number;
}

/**
 * How soon a worker whose last claim found jobs looks again. A worker sees jobs sent by other
 * processes (the servers beside pg-boss workers) only by looking. Waiting the whole poll interval
 * between looks let them pile up for a second and then run in a burst: the servers' webhook acks
 * waited for the CPU (p99 230–350 ms at 500/s on Postgres, against 65 ms). A claim that finds
 * nothing goes back to the poll interval, so an idle worker still looks once per interval.
 */
const BUSY_POLL_MS = 50;

/**
 * One `work()` call: claims due jobs into free slots, runs them, batches their completions, and
 * keeps their leases alive. It sleeps between claims until woken (a send in this process, a slot
 * freed while more jobs wait, a retry or delay coming due) or until the poll interval passes,
 * which is how it sees jobs sent by other processes.
 */
export class Worker {
  readonly #running = new Map<string, { readonly job: Job; readonly settled: Promise<void> }>();
  #completed: string[] = [];
  readonly #flushes = new Set<Promise<void>>();
  #flushQueued = false;
  #stopping = false;
  #stopped = false;
  /** The last claim filled every slot, so more jobs probably wait. */
  #more = false;
  /** The last claim found jobs, so more are probably arriving. */
  #found = false;
  #lastClaimAtMs = 0;
  #woken = false;
  #interruptSleep: (() => void) | null = null;
  #alarm: { readonly atMs: number; readonly timer: NodeJS.Timeout } | null = null;
  #heartbeat: NodeJS.Timeout | null = null;
  #loop: Promise<void> = Promise.resolve();

  constructor(
    readonly name: string,
    private readonly handler: JobHandler,
    private readonly store: JobStore,
    private readonly settings: WorkerSettings,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.#loop = this.#run();
    const { heartbeat } = this.store;
    if (heartbeat) {
      this.#heartbeat = setInterval(() => {
        const ids = [...this.#running.keys()];
        if (ids.length === 0) return;
        heartbeat.call(this.store, this.name, ids).catch((error: unknown) => {
          this.logger.warn({ queue: this.name, err: errorMessage(error) }, 'job lease renewal failed');
        });
      }, this.settings.heartbeatIntervalMs);
    }
  }

  /** Claims at once (or right after the claim under way). */
  wake(): void {
    this.#more = true;
    this.#woken = true;
    this.#interruptSleep?.();
  }

  /** Claims at `atMs`: a delayed job or a retry this process knows of, sooner than the next poll. */
  wakeAt(atMs: number): void {
    const delayMs = atMs - Date.now();
    if (delayMs <= 0) {
      this.wake();
      return;
    }
    if (this.#stopping || (this.#alarm && this.#alarm.atMs <= atMs)) return;
    if (this.#alarm) clearTimeout(this.#alarm.timer);
    this.#alarm = {
      atMs,
      timer: setTimeout(() => {
        this.#alarm = null;
        this.wake();
      }, delayMs),
    };
  }

  /**
   * Another process sent a job of this queue. A worker whose last claim found jobs looks again
   * soon anyway; an idle one looks now, though not sooner than BUSY_POLL_MS after its last claim,
   * since a busy server nudges every worker many times a second.
   */
  nudge(): void {
    if (this.#found) return;
    this.wakeAt(this.#lastClaimAtMs + BUSY_POLL_MS);
  }

  /**
   * While nearly every slot is busy, claims wait until a quarter of them are free: a claim is one
   * query whose cost barely depends on how many jobs it takes (for pg-boss, mostly an index scan
   * past the queue's dead rows), so claiming each slot as it freed multiplied them under load.
   */
  #mayClaim(free: number): boolean {
    if (free <= 0) return false;
    return this.#running.size === 0 || free >= Math.max(1, Math.floor(this.settings.concurrency / 4));
  }

  async #run(): Promise<void> {
    while (!this.#stopping) {
      const free = this.settings.concurrency - this.#running.size;
      if (this.#mayClaim(free)) {
        this.#woken = false;
        this.#lastClaimAtMs = Date.now();
        const jobs = await this.store.claim(this.name, free).catch((error: unknown) => {
          this.logger.error({ queue: this.name, err: errorMessage(error) }, 'claiming jobs failed');
          return [];
        });
        this.#more = jobs.length === free;
        this.#found = jobs.length > 0;
        for (const job of jobs) this.#handle(job);
        if (this.#more) continue;
      }
      if (this.#completed.length > 0) this.#queueFlush();
      await this.#sleep();
    }
  }

  #sleep(): Promise<void> {
    // A wake-up while every slot is busy is consumed here (it set #more, so the next freed slot
    // wakes the loop again); leaving it set would spin this loop on microtasks alone.
    if (this.#woken || this.#stopping) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const { pollIntervalMs } = this.settings;
      const timer = setTimeout(
        () => this.#interruptSleep?.(),
        this.#found ? Math.min(BUSY_POLL_MS, pollIntervalMs) : pollIntervalMs,
      );
      this.#interruptSleep = () => {
        clearTimeout(timer);
        this.#interruptSleep = null;
        resolve();
      };
    });
  }

  #handle(job: Job): void {
    const settled = (async () => {
      try {
        await this.handler(job);
        this.#completed.push(job.id);
        this.#queueFlush();
      } catch (error) {
        await this.#fail(job, error);
      } finally {
        this.#running.delete(job.id);
        if (this.#more) this.wake();
      }
    })();
    this.#running.set(job.id, { job, settled });
  }

  async #fail(job: Job, error: unknown): Promise<void> {
    if (this.#stopped) return; // released at stop: the store belongs to whoever claims it next
    const final = job.attempt >= this.settings.maxAttempts;
    const fields = { queue: this.name, jobId: job.id, attempt: job.attempt, err: errorMessage(error) };
    try {
      const { retryAtMs } = await this.store.fail(job, errorMessage(error), final);
      if (final) this.logger.error(fields, 'job failed for the last time; kept as failed');
      else this.logger.warn(fields, 'job failed; it will be retried');
      if (retryAtMs !== null) this.wakeAt(retryAtMs);
    } catch (storeError) {
      // The lease runs out and the job is delivered again: at least once still holds.
      this.logger.error({ ...fields, storeErr: errorMessage(storeError) }, 'recording a job failure failed');
    }
  }

  /** Completions of one event-loop turn go to the store as one statement. */
  #queueFlush(): void {
    if (this.#flushQueued || this.#stopped) return;
    this.#flushQueued = true;
    setImmediate(() => {
      this.#flushQueued = false;
      this.#flush();
    });
  }

  #flush(): Promise<void> {
    const ids = this.#completed;
    if (ids.length === 0) return Promise.resolve();
    this.#completed = [];
    const flush = this.store.complete(this.name, ids).catch((error: unknown) => {
      // Kept for the next flush; if the lease lapses first, the jobs run again (at least once).
      this.#completed.push(...ids);
      this.logger.error({ queue: this.name, jobs: ids.length, err: errorMessage(error) }, 'completing jobs failed');
    });
    const tracked = flush.finally(() => this.#flushes.delete(tracked));
    this.#flushes.add(tracked);
    return tracked;
  }

  /** Stops claiming, waits for running handlers up to the time limit, then releases the rest. */
  async stop(): Promise<void> {
    if (this.#stopping) return this.#loop;
    this.#stopping = true;
    if (this.#alarm) clearTimeout(this.#alarm.timer);
    this.#interruptSleep?.();
    this.#loop = this.#drain(this.#loop);
    return this.#loop;
  }

  async #drain(claiming: Promise<void>): Promise<void> {
    await claiming;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.settings.stopTimeoutMs);
    });
    await Promise.race([Promise.allSettled([...this.#running.values()].map((r) => r.settled)), limit]);
    clearTimeout(timer);
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    await this.#flush();
    await Promise.all([...this.#flushes]);
    this.#stopped = true;
    const left = [...this.#running.values()].map((r) => r.job);
    if (left.length === 0) return;
    this.logger.warn(
      { queue: this.name, jobs: left.length },
      'handlers still running at stop; their jobs are released',
    );
    await this.store.release(this.name, left).catch((error: unknown) => {
      this.logger.error(
        { queue: this.name, err: errorMessage(error) },
        'releasing jobs failed; their leases will expire',
      );
    });
  }
}
