import type { DatastoreEntry } from '../core/domain/datastore.js';
import type { ErrorDetails, Execution, ExecutionStatus, ExecutionStep, RecordPlace } from '../core/domain/execution.js';
import type { Flow, Step, VersionRef } from '../core/domain/flow.js';
import type { Page, PageRequest } from '../core/domain/page.js';
import type { RunSignal, SignalKind } from './step-runner.js';

export interface NewExecution {
  readonly id: string;
  readonly flowId: string;
  readonly testRun: boolean;
  readonly untilStepId: string | null;
  readonly retryOf: string | null;
  /** The version it runs on; null runs the flow's draft (a test run). */
  readonly flowVersion: VersionRef | null;
  /** The run and step (`<stepId>@<scope>`) that called this flow: one run per calling step. */
  readonly calledBy?: { readonly executionId: string; readonly stepKey: string; readonly depth: number } | null;
  readonly now: Date;
}

export interface ExecutionFilter {
  /** Only executions of this owner's flows; null for everyone's. */
  readonly ownerId: string | null;
  readonly flowId?: string | undefined;
  /** Case-insensitive substring of the flow's name. */
  readonly flowName?: string | undefined;
  readonly status?: ExecutionStatus | undefined;
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
  /** Only runs of this version number (`flowVersion.number`). */
  readonly flowVersion?: number | undefined;
  /** Case-insensitive substring of a record's input, output or error as JSON text. */
  readonly dataContains?: string | undefined;
  /**
   * How many of the newest runs the other filters keep `dataContains` reads (default
   * DATA_SEARCH_WINDOW): a search's cost has a ceiling however many runs are stored.
   */
  readonly dataSearchWindow?: number | undefined;
}

/** The newest runs a search in run data reads, unless the filter says otherwise. */
export const DATA_SEARCH_WINDOW = 10_000;

export interface ExecutionWithFlow extends Execution {
  /** The run's flow as it is now. */
  readonly flow: Flow;
}

/** A worker's hold on a run: while it lasts, no other worker runs it. */
export interface Lease {
  readonly owner: string;
  readonly until: Date;
}

/** A record as a worker reads it when it takes a run up. */
export interface ClaimedRecord extends ExecutionStep {
  /** An action the engine ran in this run (billed as a task); not the trigger's record, nor one a retry copied. */
  readonly task: boolean;
}

export interface ClaimedRun {
  readonly execution: Execution;
  /**
   * The draft's steps, by position, for a run on the draft (a test run); null for a run on a
   * version, whose steps the engine reads once (versions never change).
   */
  readonly steps: readonly Step[] | null;
  /** The run's records so far, oldest first. */
  readonly recorded: readonly ClaimedRecord[];
  /** The account of the flow's owner was removed: the run must not go on. */
  readonly ownerRemoved: boolean;
}

export interface NewRun {
  readonly execution: NewExecution;
  readonly trigger: NewExecutionStep;
}

/** What becomes of a run once a step's record is in, as the run's state machine decided. */
export type AfterStep =
  | { readonly kind: 'continue'; readonly resetAttempts: boolean }
  /** `tasks`: to bill to the flow's owner, once; null bills nothing (a test run). */
  | { readonly kind: 'finish'; readonly status: 'success' | 'failure'; readonly tasks: number | null }
  | { readonly kind: 'wait'; readonly resumeAt: Date };

export interface ExecutionRepository {
  insert(execution: NewExecution): Promise<void>;
  /** New runs, each with its trigger's record: all or none, in as few round trips as the database allows. */
  start(runs: readonly NewRun[]): Promise<void>;
  findById(id: string): Promise<ExecutionWithFlow | null>;
  /** Newest first. */
  list(filter: ExecutionFilter, page: PageRequest): Promise<Page<ExecutionWithFlow>>;
  /**
   * Takes the run for `lease.owner` when it is running or came due while waiting, and nobody
   * else holds a live lease on it. Returns the run as taken, with what running it needs (its
   * flow's steps, its records so far) read in the same round trip where the database allows; or
   * null.
   */
  claim(id: string, lease: Lease, now: Date): Promise<ClaimedRun | null>;
  /** Extends the leases `owner` still holds; one statement for all of a worker's runs. */
  renew(ids: readonly string[], lease: Lease): Promise<void>;
  /**
   * The run pauses until `resumeAt`, its lease released; `stepAttempts` are the attempts made at
   * the step it will resume at (0 when that step has not been tried).
   */
  wait(id: string, resumeAt: Date, stepAttempts: number, now: Date): Promise<void>;
  /**
   * A waiting run becomes due now (a signal reached it, a run it called ended); false when it is not
   * waiting. The caller sends it to the queue.
   */
  wake(id: string, now: Date): Promise<boolean>;
  /**
   * The run pauses (a step suspended) until `until`, its lease released; at once instead when it was
   * woken since it was claimed (its wakes grew past `seenWakes`). When it resumes.
   */
  suspend(id: string, until: Date, seenWakes: number, now: Date): Promise<Date>;
  /** The run's resume token: the one it has, else `candidate`, kept from now on. */
  resumeToken(id: string, candidate: string): Promise<string>;
  /** Whether a run this one called has not finished yet. */
  callsRunning(parentExecutionId: string): Promise<boolean>;
  /** The run a calling step started already, if any. */
  findCalled(parentExecutionId: string, stepKey: string): Promise<Execution | null>;
  /** Ends the run; `tasks` (null: none) are billed to its flow's owner in the same transaction, once. */
  finish(id: string, status: 'success' | 'failure', now: Date, tasks: number | null): Promise<void>;
  /**
   * Records a step's result and moves its run on, atomically and with as few round trips as the
   * database allows (the engine does this for every step). False when the step was already
   * recorded, by a worker that had the run before: then nothing changes.
   */
  recordStep(step: NewExecutionStep, next: AfterStep): Promise<boolean>;
  /**
   * Runs that need a worker and may have none: running with an expired lease, running unclaimed
   * since before `unclaimedSince`, or waiting and due. The reaper sends them to the queue again.
   */
  findStranded(now: Date, unclaimedSince: Date, limit: number): Promise<string[]>;
  /**
   * Waiting runs that missed their wake: a run they called ended, or a signal reached them, after
   * they went to sleep (the process that should have woken them died in between).
   */
  findUnwoken(limit: number): Promise<string[]>;
  /** Retention: deletes finished runs (and their steps) finished before `cutoff`; how many. */
  deleteFinishedBefore(cutoff: Date, limit: number): Promise<number>;
  /** Executions stored, test runs included, per status (one grouped count over the status index; for metrics). */
  countByStatus(): Promise<Readonly<Record<ExecutionStatus, number>>>;
  /**
   * Runs accepted and not yet finished nor paused (status `running`, claimed or not), per flow that
   * has any: the backlog webhook intake is bounded by.
   */
  countRunningByFlow(): Promise<ReadonlyMap<string, number>>;
}

export interface NewExecutionStep extends Partial<RecordPlace> {
  readonly id: string;
  /** A step the engine ran as an action, billed as a task (paths and loops are not); true unless given. */
  readonly task?: boolean;
  readonly executionId: string;
  readonly stepId: string;
  /** The step's position in its flow when it ran; records of a run are listed in this order. */
  readonly position: number;
  readonly status: 'success' | 'failure';
  readonly dataIn: unknown;
  readonly dataOut: unknown;
  readonly errorDetails: ErrorDetails | null;
  readonly now: Date;
}

export interface ExecutionStepRepository {
  /** A step is recorded once per execution and scope: a second record of it there is refused. */
  insert(step: NewExecutionStep): Promise<void>;
  /** Oldest first. */
  listByExecution(executionId: string): Promise<ExecutionStep[]>;
  page(executionId: string, page: PageRequest): Promise<Page<ExecutionStep>>;
  /** The newest successful execution step of each step, for the editor's variable picker. */
  latestSuccessful(stepIds: readonly string[]): Promise<ExecutionStep[]>;
  /** The newest execution step of a step, whatever its status. */
  latest(stepId: string): Promise<ExecutionStep | null>;
}

/** Signals that reached runs from outside, and what waiting steps keep between their turns. */
export interface RunSignalRepository {
  add(signal: {
    readonly id: string;
    readonly executionId: string;
    readonly kind: SignalKind;
    readonly payload: unknown;
    readonly now: Date;
    /** Meant for this taker only (an agent's tool call waiting for approval: its id); none for any. */
    readonly target?: string | null;
  }): Promise<void>;
  /**
   * The signal of the kind `stepKey` took already; else the oldest untaken one, now taken by it
   * (two steps never take the same); else null. With a `target`, only signals meant for it, each
   * target's taken apart from the step's others; without, only signals meant for anyone.
   */
  take(executionId: string, kind: SignalKind, stepKey: string, target?: string): Promise<RunSignal | null>;
  /** The value kept for `stepKey`: the one kept first, else `value`, kept from now on. */
  keep(executionId: string, stepKey: string, value: unknown, newId: string, now: Date): Promise<unknown>;
}

/** Small durable values per flow: the datastore app, a polling trigger's memory. */
export interface FlowStoreRepository {
  get(flowId: string, key: string): Promise<unknown>;
  /**
   * Visible to every reader once it resolves. Outside a unit of work it may resolve before it is
   * flushed to disk (Postgres): it becomes durable with the next write that is, such as the step
   * record of the run that wrote it.
   */
  set(flowId: string, key: string, value: unknown, now: Date): Promise<void>;
  /**
   * The keys that start with `prefix` (given without it), in key order; `contains` keeps those
   * whose key (without the prefix) or value as JSON holds it, case-insensitively.
   */
  list(
    flowId: string,
    prefix: string,
    filter: { readonly contains?: string | undefined },
    page: PageRequest,
  ): Promise<Page<DatastoreEntry>>;
  /** Whether there was such a key. */
  delete(flowId: string, key: string): Promise<boolean>;
}

/** What polling triggers have seen, so that an item starts one run only. */
export interface SeenItemRepository {
  /** Records the items; returns the internal ids not seen before, in the order given. */
  remember(flowId: string, internalIds: readonly string[], now: Date): Promise<string[]>;
}
