import type { Clock } from '../../ports/clock.js';
import type { ExecutionRepository } from '../../ports/execution-repositories.js';
import type { Logger } from '../../ports/logger.js';
import { type DomainError, errorMessage, rateLimited, serviceBusy } from '../domain/errors.js';
import { err, ok, type Result } from '../domain/result.js';

/** How much webhook intake one process takes before it refuses calls; 0 turns a limit off. */
export interface IntakeLimits {
  /** Webhook calls per second one flow may make, on average (429 beyond). */
  readonly flowRatePerSecond: number;
  /** Calls a flow may make at once before its average rate applies. */
  readonly flowBurst: number;
  /** Webhook calls this process is storing at once: each waits for the database (503 beyond). */
  readonly maxPending: number;
  /** Runs accepted but not finished, of every flow together, plus the calls being stored (503 beyond). */
  readonly maxBacklog: number;
  /** The same, for one flow. */
  readonly maxFlowBacklog: number;
}

/** One admitted call: say how many runs it started, then leave (whatever happened). */
export interface IntakePass {
  started(runs: number): void;
  leave(): void;
}

export interface IntakeGate {
  /** Lets a webhook call of the flow in, or says why not; costs no database access. */
  enter(flowId: string): Result<IntakePass, DomainError>;
  /**
   * What `enter` would answer now, without entering: the HTTP edge asks before it reads the call,
   * so that a refusal costs as little as it can (under overload, most calls are refused).
   */
  refusal(flowId: string): DomainError | null;
}

/** How old the database's count of unfinished runs may be before a call asks for a new one. */
export const BACKLOG_SAMPLE_MS = 200;
/** A busy process asks to be called again this soon: its backlog moves on in well under a second. */
const BUSY_RETRY_SECONDS = 1;
/** At most one log line about refused calls in this long. */
const REPORT_EVERY_MS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Admission of webhook calls, held in this process's memory so that refusing a call costs no
 * database access (which is what an overloaded instance lacks). The backlog is the database's
 * count of unfinished runs, of every process, read at most every BACKLOG_SAMPLE_MS while calls
 * arrive, plus the runs this process accepted since that count began and the calls it is
 * storing: an over-estimate between counts, never an under-estimate, whatever other processes do.
 * The rate is a token bucket per flow; with several server processes each keeps its own.
 */
export const makeIntakeGate = (deps: {
  readonly executions: Pick<ExecutionRepository, 'countRunningByFlow'>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly limits: IntakeLimits;
  /** What the log calls this gate; `webhook intake` unless given. */
  readonly what?: string;
}): IntakeGate => {
  const { executions, clock, logger, limits, what = 'webhook intake' } = deps;
  const pending = new Map<string, number>();
  let pendingTotal = 0;
  /** The last count of unfinished runs, by flow, and its total. */
  let counted: ReadonlyMap<string, number> = new Map();
  let countedTotal = 0;
  /** Runs accepted here before the count under way began: in it, but not yet in `counted`. */
  let counting: ReadonlyMap<string, number> = new Map();
  let countingTotal = 0;
  /** Runs accepted here since the last count began: perhaps in it, perhaps not; kept until the next. */
  let since = new Map<string, number>();
  let sinceTotal = 0;
  let countedAt = Number.NEGATIVE_INFINITY;
  let busyCounting = false;
  const buckets = new Map<string, Bucket>();

  const add = (map: Map<string, number>, key: string, n: number) => {
    const value = (map.get(key) ?? 0) + n;
    if (value === 0) map.delete(key);
    else map.set(key, value);
  };

  /** Buckets that have filled up again hold nothing a new bucket would not: dropped, so the map stays small. */
  const forgetFullBuckets = (now: number) => {
    for (const [flowId, bucket] of buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * limits.flowRatePerSecond >= limits.flowBurst) {
        buckets.delete(flowId);
      }
    }
  };

  const recount = (now: number) => {
    if (busyCounting || now - countedAt < BACKLOG_SAMPLE_MS) return;
    busyCounting = true;
    countedAt = now;
    forgetFullBuckets(now);
    counting = since;
    countingTotal = sinceTotal;
    since = new Map();
    sinceTotal = 0;
    executions
      .countRunningByFlow()
      .then(
        (counts) => {
          counted = counts;
          countedTotal = [...counts.values()].reduce((sum, n) => sum + n, 0);
        },
        (error: unknown) => {
          // The runs the count would have held stay in the estimate; a later call counts again.
          for (const [flowId, n] of counting) add(since, flowId, n);
          sinceTotal += countingTotal;
          logger.warn({ err: errorMessage(error) }, `could not count the runs in progress for ${what}`);
        },
      )
      .finally(() => {
        counting = new Map();
        countingTotal = 0;
        busyCounting = false;
      });
  };

  /** The flow's bucket, filled up to now; null when its rate is not limited. */
  const bucketOf = (flowId: string, now: number): Bucket | null => {
    if (limits.flowRatePerSecond <= 0) return null;
    const bucket = buckets.get(flowId) ?? { tokens: limits.flowBurst, at: now };
    bucket.tokens = Math.min(limits.flowBurst, bucket.tokens + ((now - bucket.at) / 1000) * limits.flowRatePerSecond);
    bucket.at = now;
    buckets.set(flowId, bucket);
    return bucket;
  };

  const over = (limit: number, load: number) => limit > 0 && load >= limit;

  /** Refusals since the last summary in the log: one line per interval, not one per call. */
  let refused = 0;
  let reportedAt = Number.NEGATIVE_INFINITY;
  const report = (now: number) => {
    refused++;
    if (now - reportedAt < REPORT_EVERY_MS) return;
    logger.warn(
      { refused, pending: pendingTotal, backlog: countedTotal + countingTotal + sinceTotal, limits },
      `${what} refused calls: a flow over its rate, or a full backlog`,
    );
    refused = 0;
    reportedAt = now;
  };

  /** Why a call of the flow is refused now, or null. */
  const check = (flowId: string, bucket: Bucket | null): DomainError | null => {
    if (bucket && bucket.tokens < 1) {
      return rateLimited(Math.max(1, Math.ceil((1 - bucket.tokens) / limits.flowRatePerSecond)));
    }
    const flowBacklog =
      (counted.get(flowId) ?? 0) + (counting.get(flowId) ?? 0) + (since.get(flowId) ?? 0) + (pending.get(flowId) ?? 0);
    if (
      over(limits.maxPending, pendingTotal) ||
      over(limits.maxBacklog, countedTotal + countingTotal + sinceTotal + pendingTotal) ||
      over(limits.maxFlowBacklog, flowBacklog)
    ) {
      return serviceBusy(BUSY_RETRY_SECONDS);
    }
    return null;
  };

  return {
    refusal(flowId) {
      const now = clock.now().getTime();
      recount(now);
      const refusal = check(flowId, bucketOf(flowId, now));
      if (refusal) report(now);
      return refusal;
    },

    enter(flowId) {
      const now = clock.now().getTime();
      recount(now);
      const bucket = bucketOf(flowId, now);
      const refusal = check(flowId, bucket);
      if (refusal) {
        report(now);
        return err(refusal);
      }
      // Only a call let in counts against its flow's rate: one refused for the instance's sake does not.
      if (bucket) bucket.tokens -= 1;
      add(pending, flowId, 1);
      pendingTotal++;
      let left = false;
      return ok({
        started(runs) {
          add(since, flowId, runs);
          sinceTotal += runs;
        },
        leave() {
          if (left) return;
          left = true;
          add(pending, flowId, -1);
          pendingTotal--;
        },
      });
    },
  };
};
