import type { BackoffPolicy } from '../domain/backoff.js';
import type { IntakeLimits } from './intake-gate.js';

export interface EngineSettings {
  /** How long a worker's hold on a run lasts without a heartbeat. */
  readonly leaseMs: number;
  /** A run nobody claimed for this long is sent to the queue again (its job was lost). */
  readonly unclaimedAfterMs: number;
  readonly backoff: BackoffPolicy;
  /** How long `/sync` webhooks wait for the run before answering 202. */
  readonly syncTimeoutMs: number;
  /** The longest a console may wait for a trigger's next event to test with (`POST /steps/:id/test-event`). */
  readonly testEventMaxWaitMs: number;
  /** How much webhook intake a process takes before it refuses calls (429, 503). */
  readonly intake: IntakeLimits;
  /** Unfinished runs one flow may have before its listener takes no more messages (0: no limit). */
  readonly listenerMaxBacklog: number;
  /** The public base URL of webhooks: runs' resume URLs start with it. */
  readonly publicUrl: string;
  /** The most items any loop may have. */
  readonly loopItemsMax: number;
  /** How deep flows may call flows. */
  readonly callDepthMax: number;
}
