/**
 * Jobs carry ids only: whatever a handler needs it reads from the database when it runs, so a
 * job never holds a stale copy or a secret.
 */
export type JobPayload = Readonly<Record<string, string | number | boolean | null>>;

export interface JobRequest {
  /** The queue, e.g. `execution.run`. */
  readonly name: string;
  readonly payload: JobPayload;
  /** Not delivered before this instant (delays, retries with backoff). */
  readonly startAfter?: Date;
  /**
   * While a job with this key waits for its first delivery in the same queue, sending another is a
   * no-op returning null. A job already running, or waiting to be retried, no longer holds the key.
   */
  readonly singletonKey?: string;
}

export interface Job {
  readonly id: string;
  readonly name: string;
  readonly payload: JobPayload;
  /** 1 on the first delivery; higher when a handler failed or its worker died. */
  readonly attempt: number;
}

export type JobHandler = (job: Job) => Promise<void>;

export interface WorkOptions {
  /** Jobs of this queue handled at the same time by this process. */
  readonly concurrency: number;
}

/**
 * Durable delivery of jobs to workers, at least once. A job whose handler resolves is done; one
 * whose handler throws is delivered again later, with backoff, until `maxAttempts`; one whose
 * worker died is delivered again once its lease expires.
 */
export interface JobQueue {
  /** Durably enqueues; the job id, or null when a pending job holds the singleton key. */
  send(request: JobRequest): Promise<string | null>;
  /**
   * Sends `request` at every tick of a five-field cron expression (a sixth, leading field of
   * seconds is accepted) in an IANA time zone; a new schedule under the same key replaces the old
   * one. Ticks missed while no process ran are not made up, except the most recent one.
   */
  schedule(key: string, cron: string, timezone: string, request: Omit<JobRequest, 'startAfter'>): Promise<void>;
  unschedule(key: string): Promise<void>;
  /** Starts delivering jobs of `name` to `handler` in this process. */
  work(name: string, handler: JobHandler, options: WorkOptions): Promise<void>;
  /** Jobs not yet done, per queue name (for metrics and the benchmark's drain time). */
  depth(): Promise<Readonly<Record<string, number>>>;
  /**
   * Makes ready what sending to these queues needs (connections, the queues' own setup), so that the
   * first jobs sent after start do not wait for it.
   */
  prepare(names: readonly string[]): Promise<void>;
  /** Stops taking jobs, lets in-flight handlers finish (up to a time limit), releases the rest. */
  stop(): Promise<void>;
}
