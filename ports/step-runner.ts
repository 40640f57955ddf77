import type { ConnectionUse } from './app-catalog.js';

/** The durable memory an app sees as `ctx.store`. */
export interface StepStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

export interface StepRunRequest {
  readonly appKey: string;
  readonly key: string;
  /** Variables already filled in. */
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly connection: ConnectionUse | null;
  readonly store: StepStore;
  readonly execution: {
    readonly id: string;
    readonly flowId: string;
    readonly stepId: string;
    readonly testRun: boolean;
    /** Stable across attempts of the same execution step; apps pass it to APIs that deduplicate. */
    readonly idempotencyKey: string;
  } | null;
}

export interface IncomingRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  /** A parameter given more than once has every value, as an array (as Express reads a query). */
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  readonly body: unknown;
}

export interface StepFailure {
  readonly message: string;
  /** Worth another attempt later (network, time-out, 5xx, 429). */
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly details?: Readonly<Record<string, unknown>>;
}

export type ActionOutcome =
  | { readonly kind: 'success'; readonly output: unknown }
  /** Record the output, then end the run as a success (a filter that did not match). */
  | { readonly kind: 'stop'; readonly output: unknown }
  /** Record the output, then go on with the next step at `until` (a delay). */
  | { readonly kind: 'wait'; readonly until: Date; readonly output: unknown }
  | { readonly kind: 'failure'; readonly failure: StepFailure };

export interface TriggerItem {
  /** Polling triggers: what identifies the item across polls. */
  readonly id?: string;
  readonly data: unknown;
}

export type TriggerOutcome =
  | { readonly kind: 'success'; readonly items: readonly TriggerItem[] }
  | { readonly kind: 'failure'; readonly failure: StepFailure };

/** Runs apps' actions and triggers; a failure of the app is an outcome, never a throw. */
export interface StepRunner {
  runAction(request: StepRunRequest): Promise<ActionOutcome>;
  runTrigger(request: StepRunRequest & { readonly webhook: IncomingRequest | null }): Promise<TriggerOutcome>;
  /**
   * When a schedule or polling trigger with these parameters fires: a cron expression and time
   * zone; null for webhook triggers and parameters that name no schedule.
   */
  scheduleOf(appKey: string, key: string, parameters: Readonly<Record<string, unknown>>): Schedule | null;
}

export interface Schedule {
  readonly cron: string;
  readonly timezone: string;
}
