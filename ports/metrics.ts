/** One HTTP exchange as metrics see it: the route pattern, never the URL, so ids do not become labels. */
export interface HttpObservation {
  readonly method: string;
  /** The matched route pattern, e.g. `/api/v1/flows/:flowId`; `(unmatched)` when none matched. */
  readonly route: string;
  readonly status: number;
  readonly seconds: number;
}

/** One job handled by this process, labelled by queue name only (payloads carry ids). */
export interface JobObservation {
  readonly queue: string;
  readonly outcome: 'completed' | 'failed';
  readonly seconds: number;
}

/** The text a metrics scrape answers with. */
export interface MetricsExposition {
  readonly contentType: string;
  readonly body: string;
}

/** Figures of one Conveyor instance, in its own registry (several instances may share a process). */
export interface Metrics {
  observeHttp(observation: HttpObservation): void;
  observeJob(observation: JobObservation): void;
  /** Reads the figures collected on scrape (queue depth, executions by status) and renders them all. */
  expose(): Promise<MetricsExposition>;
}
