import type { VersionRef } from './flow.js';

/**
 * One run of a flow for one trigger item. The run is a sequence of durable facts: the execution
 * row, then one execution step per step that ran, then the finish. `running` covers a run that
 * waits for a worker as well as one being worked on.
 */
export type ExecutionStatus = 'running' | 'waiting' | 'success' | 'failure';
export type ExecutionStepStatus = 'success' | 'failure';

export interface Execution {
  readonly id: string;
  readonly flowId: string;
  readonly status: ExecutionStatus;
  /** Started from the editor (test step): never counted as usage, never run by triggers. */
  readonly testRun: boolean;
  /** A test run stops after this step; null runs the whole flow. */
  readonly untilStepId: string | null;
  /** The flow version it runs on; null for a test run (the draft) and for runs from before versions. */
  readonly flowVersion: VersionRef | null;
  /** The run whose `flows.callFlow` step started this one; null for a run its trigger started. */
  readonly parentExecutionId: string | null;
  /** How many calls deep it runs: 0 for a run its trigger started. */
  readonly callDepth: number;
  /** How many times a signal or a called run's end woke it (a step suspending compares). */
  readonly wakes: number;
  /** The failed execution this one retries, if any. */
  readonly retryOf: string | null;
  /** While `waiting`: when the run goes on (a delay step, or a step's retry after backoff). */
  readonly resumeAt: Date | null;
  /** Attempts made so far at the step the run is at (reset when a step finishes). */
  readonly stepAttempts: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly finishedAt: Date | null;
}

export interface ErrorDetails {
  readonly message: string;
  readonly [detail: string]: unknown;
}

/**
 * Where in a flow's tree a record was made. `scope` names the loop iterations it ran in
 * (`<loopStepId>:<index>`, outermost first, joined by `/`; empty at the top level): a step is
 * recorded once per scope.
 */
export interface RecordPlace {
  readonly scope: string;
  /** The paths, branch or loop step it sits in; null at the top level. */
  readonly parentStepId: string | null;
  /** The branch it ran in, when it sits in one. */
  readonly branchId: string | null;
  /** The index of the innermost loop iteration it ran in. */
  readonly iteration: number | null;
}

export interface ExecutionStep extends RecordPlace {
  readonly id: string;
  readonly executionId: string;
  readonly stepId: string;
  readonly position: number;
  readonly status: ExecutionStepStatus;
  readonly dataIn: unknown;
  readonly dataOut: unknown;
  readonly errorDetails: ErrorDetails | null;
  readonly createdAt: Date;
}

export const isFinished = (status: ExecutionStatus): boolean => status === 'success' || status === 'failure';
