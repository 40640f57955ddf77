import type { BackoffPolicy } from './backoff.js';

/**
 * Where a published flow's listener trigger stands: `starting` until a process opens its
 * subscription, `listening` while one holds it open, `failing` after it failed to open or broke
 * (it is opened again with backoff, and the last error stays shown until it listens again).
 */
export type ListenerStatus = 'starting' | 'listening' | 'failing';

export interface ListenerState {
  readonly status: ListenerStatus;
  /** Failures in a row since it last listened. */
  readonly failures: number;
  readonly lastError: string | null;
  readonly lastErrorAt: Date | null;
  /** When the status last changed. */
  readonly updatedAt: Date;
}

/** A listener's subscription as stored: its state, which process holds it and until when. */
export interface FlowListener extends ListenerState {
  readonly flowId: string;
  /** Raised whenever the flow is published again or its trigger's connection changes: its holder reopens it. */
  readonly revision: number;
  readonly connectionId: string | null;
  readonly holder: string | null;
  readonly leaseUntil: Date | null;
}

/** A subscription that failed is opened again after 1 s, 2 s, 4 s... up to a minute (with jitter). */
export const LISTENER_BACKOFF: BackoffPolicy = {
  maxAttempts: Number.POSITIVE_INFINITY,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
};

/** How long a holder's lease lasts without renewal: another process takes the subscription over after it. */
export const LISTENER_LEASE_MS = 10_000;

/** How long an accepted message's id is remembered to recognise its redelivery. */
export const LISTENER_DEDUPE_MS = 7 * 24 * 60 * 60_000;
