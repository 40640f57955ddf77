import { Cron } from 'croner';
import type { Selectable } from 'kysely';
import type { JobRequest } from '../../ports/job-queue.js';
import type { Logger } from '../../ports/logger.js';
import { type QueueDb, type QueueTables, readPayload } from './tables.js';

/**
 * The first tick of `cron` in the IANA `timezone` strictly after `afterMs`. Five fields, or six
 * with leading seconds. Throws on a malformed expression or an unknown zone.
 */
export const nextTick = (cron: string, timezone: string, afterMs: number): number => {
  const next = new Cron(cron, { timezone, paused: true, mode: '5-or-6-parts' }).nextRun(new Date(afterMs));
  if (!next) throw new Error(`The cron expression "${cron}" never fires.`);
  return next.getTime();
};

/** Sends a schedule's job inside the transaction that advanced the schedule. */
export type SendInTransaction = (trx: QueueDb, request: JobRequest) => Promise<string | null>;

const DUE_PER_TICK = 100;

/**
 * Cron schedules in the `job_schedules` table, fired by whichever process gets to a due row
 * first. A firing advances `next_run_at_ms` with an update conditional on the value it read, and
 * sends the job in the same transaction: across processes a tick fires once, and a crash between
 * the two loses nothing. Both queue adapters use it (pg-boss 10 allows one schedule per queue
 * and at most one firing a minute, which cannot serve a schedule per flow).
 */
export class Scheduler {
  #timer: NodeJS.Timeout | null = null;
  #dueAtMs = Number.POSITIVE_INFINITY;
  #ticking: Promise<void> | null = null;
  #started = false;
  #stopped = false;

  constructor(
    private readonly db: QueueDb,
    private readonly send: SendInTransaction,
    private readonly pollIntervalMs: number,
    private readonly logger: Logger,
  ) {}

  async schedule(key: string, cron: string, timezone: string, request: Omit<JobRequest, 'startAfter'>): Promise<void> {
    const nowMs = Date.now();
    const nextRunAtMs = nextTick(cron, timezone, nowMs);
    const row = {
      cron,
      timezone,
      name: request.name,
      payload: JSON.stringify(request.payload),
      singleton_key: request.singletonKey ?? null,
      next_run_at_ms: nextRunAtMs,
      updated_at_ms: nowMs,
    };
    await this.db
      .insertInto('job_schedules')
      .values({ key, ...row })
      .onConflict((oc) => oc.column('key').doUpdateSet(row))
      .execute();
    this.#armAt(nextRunAtMs);
  }

  async unschedule(key: string): Promise<void> {
    await this.db.deleteFrom('job_schedules').where('key', '=', key).execute();
  }

  /** Only processes that work jobs fire schedules; one that only sends never does. */
  start(): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    this.#armAt(Date.now());
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#ticking;
  }

  #armAt(atMs: number): void {
    if (!this.#started || this.#stopped || atMs >= this.#dueAtMs) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#dueAtMs = atMs;
    this.#timer = setTimeout(
      () => {
        this.#timer = null;
        this.#dueAtMs = Number.POSITIVE_INFINITY;
        this.#ticking = this.#tick().finally(() => {
          this.#ticking = null;
        });
      },
      Math.max(0, atMs - Date.now()),
    );
  }

  async #tick(): Promise<void> {
    let nextAtMs = Date.now() + this.pollIntervalMs;
    try {
      const nowMs = Date.now();
      const due = await this.db
        .selectFrom('job_schedules')
        .selectAll()
        .where('next_run_at_ms', '<=', nowMs)
        .orderBy('next_run_at_ms')
        .limit(DUE_PER_TICK)
        .execute();
      for (const row of due) {
        if (this.#stopped) return;
        await this.#fire(row, nowMs).catch((error: unknown) => {
          // One broken schedule must not hold back the others; it is tried again next tick.
          this.logger.error({ schedule: row.key, err: (error as Error).message }, 'firing a job schedule failed');
        });
      }
      const soonest = await this.db
        .selectFrom('job_schedules')
        .select((eb) => eb.fn.min('next_run_at_ms').as('at'))
        .executeTakeFirst();
      if (soonest?.at != null) nextAtMs = Math.min(nextAtMs, Number(soonest.at));
    } catch (error) {
      this.logger.error({ err: (error as Error).message }, 'firing job schedules failed');
    }
    this.#armAt(nextAtMs);
  }

  async #fire(row: Selectable<QueueTables['job_schedules']>, nowMs: number): Promise<void> {
    // Every tick missed while no process ran collapses into this one firing.
    const nextRunAtMs = nextTick(row.cron, row.timezone, nowMs);
    await this.db.transaction().execute(async (trx) => {
      // The claim matches the timing it read and sends the definition it updated: a schedule
      // replaced between the read and the claim (same next tick) fires with its new payload,
      // and one whose cron or zone changed is left for the next tick to read again.
      const claimed = await trx
        .updateTable('job_schedules')
        .set({ next_run_at_ms: nextRunAtMs })
        .where('key', '=', row.key)
        .where('next_run_at_ms', '=', Number(row.next_run_at_ms))
        .where('cron', '=', row.cron)
        .where('timezone', '=', row.timezone)
        .returning(['name', 'payload', 'singleton_key'])
        .executeTakeFirst();
      if (!claimed) return;
      await this.send(trx, {
        name: claimed.name,
        payload: readPayload(claimed.payload),
        ...(claimed.singleton_key === null ? {} : { singletonKey: claimed.singleton_key }),
      });
    });
  }
}
