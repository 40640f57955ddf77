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

export interface ExecutionStep {
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
