import type { ColumnType, Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';
import type { JobPayload } from '../../ports/job-queue.js';

/** pg returns int8 as a string; better-sqlite3 returns a number. */
type Int8 = ColumnType<string | number, number, number>;
/** jsonb comes back parsed from pg and as text from SQLite; both are written as JSON text. */
type Json = ColumnType<unknown, string, string>;

export type JobState = 'created' | 'retry' | 'active' | 'failed';

/** The queue's own view of the tables that migration 0004-job-queue creates. */
export interface QueueTables {
  jobs: {
    id: string;
    name: string;
    payload: Json;
    state: JobState;
    attempt: number;
    available_at_ms: Int8 | null;
    singleton_key: string | null;
    last_error: string | null;
    created_at_ms: Int8;
  };
  job_schedules: {
    key: string;
    cron: string;
    timezone: string;
    name: string;
    payload: Json;
    singleton_key: string | null;
    next_run_at_ms: Int8;
    updated_at_ms: Int8;
  };
}

export type QueueDb = Kysely<QueueTables>;

export const isPostgres = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

export const readPayload = (value: unknown): JobPayload =>
  (typeof value === 'string' ? JSON.parse(value) : value) as JobPayload;
