import { randomUUID } from 'node:crypto';
import { type FlowSuspend, type RunAccess, suspendUntil } from '../sdk/index.js';

const MINUTE_MS = 60_000;

/**
 * How long a wait without a time-out sleeps before the step looks again on its own: the engine
 * wakes it when a signal comes, so this only bounds how long a lost wake could hold it.
 */
export const RECHECK_MS = 24 * 60 * MINUTE_MS;

/** What a waiting step keeps from its first turn: that turn's mark, and when the wait ends (epoch ms). */
interface Kept {
  readonly turn: string;
  readonly deadline: number | null;
}

/** `1 minute`, `30 minutes`: how a time-out reads in a failure. */
export const minutes = (count: number | undefined) => (count === 1 ? '1 minute' : `${count} minutes`);

export interface Waiting {
  /** This is the step's first turn: what is done once (an e-mail) is done now. */
  readonly first: boolean;
  /** When the wait ends in failure; null for none. */
  readonly deadline: number | null;
}

/**
 * The wait as the step's first turn set it: a step that suspends runs again, and its deadline and
 * what it did once must not start over. A turn knows it is the first when the value kept is its own.
 */
export const startWaiting = async (run: RunAccess, timeoutMinutes: number | undefined): Promise<Waiting> => {
  const turn = randomUUID();
  const deadline = timeoutMinutes === undefined ? null : Date.now() + timeoutMinutes * MINUTE_MS;
  const kept = await run.keep<Kept>({ turn, deadline });
  return { first: kept.turn === turn, deadline: kept.deadline };
};

/**
 * Nothing came yet: the step sleeps until its deadline (or for a while, without one), or fails
 * with `late` once the deadline is past. The engine wakes it as soon as something comes.
 */
export const waitMore = (waiting: Waiting, late: string): FlowSuspend => {
  const now = Date.now();
  if (waiting.deadline === null) return suspendUntil(new Date(now + RECHECK_MS));
  if (now >= waiting.deadline) throw new Error(late);
  return suspendUntil(new Date(waiting.deadline));
};
