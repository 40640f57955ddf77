/** A run that reached its end, as the engine recorded it. */
export interface RunEnd {
  readonly executionId: string;
  readonly flowId: string;
  readonly status: 'success' | 'failure';
  /** An editor's test run rather than a run of the published flow. */
  readonly testRun: boolean;
  /** The step that failed the run and why; null for a success. */
  readonly failed: { readonly stepId: string; readonly error: string } | null;
  readonly finishedAt: Date;
}

/**
 * Told of each run's end after it is committed, in the process whose worker ran the run's last
 * turn. Called without being awaited: what it throws is logged and the run is unaffected.
 */
export interface RunObserver {
  runEnded(end: RunEnd): void;
}
