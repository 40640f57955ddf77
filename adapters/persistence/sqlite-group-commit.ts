import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  SqliteDialect,
} from 'kysely';
import { DatabaseUnavailableError } from '../../ports/database-unavailable.js';
import { newStatementCounts, type StatementCounts } from './statement-counts.js';

/**
 * SQLite could not write for want of disk space (SQLITE_FULL). That passes once space is freed,
 * as an unreachable server comes back: callers get DatabaseUnavailableError (HTTP 503 with
 * Retry-After) rather than a bug's 500. The connection stays usable; nothing needs a restart.
 */
const passingFailure = (error: unknown): unknown =>
  (error as { code?: unknown }).code === 'SQLITE_FULL'
    ? new DatabaseUnavailableError('the disk holding the SQLite database is full', { cause: error })
    : error;

/** Hands the single connection to one user at a time, in the order they asked. */
class FifoLock {
  #held = false;
  readonly #queue: (() => void)[] = [];

  acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#queue.push(resolve));
  }

  release(): void {
    const next = this.#queue.shift();
    if (next) next();
    else this.#held = false;
  }
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/** One holder of the connection: a single query, or a whole Kysely transaction. */
class Lease implements DatabaseConnection {
  released = false;
  inUnit = false;
  /** The batch this lease's unit was part of was rolled back under it (I/O error, disk full). */
  aborted = false;

  constructor(private readonly driver: GroupCommitSqliteDriver) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // A lease handed on after a write (`db.connection()` running several queries) takes its turn again.
    if (this.released) {
      await this.driver.reacquire();
      this.released = false;
    }
    return this.driver.execute(this, query);
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('SQLite streams select queries only');
    for (const row of this.driver.prepare(query.sql).iterate(query.parameters as unknown[])) yield { rows: [row as R] };
  }
}

const UNIT = 'conveyor_unit';

/**
 * A group commit for SQLite. A commit is most of what a small write costs (the WAL append), and
 * the engine makes thousands of small writes a second from concurrent runs. So writes share one
 * transaction: the first write opens it (BEGIN IMMEDIATE, taking the write lock up front so that
 * another process waits on the busy timeout instead of failing mid-way), every Kysely transaction
 * inside it is a savepoint of its own, and the whole batch commits once the event loop has
 * served everyone who was waiting for the connection.
 *
 * What callers see is unchanged: a write, or a transaction's commit, resolves only after the batch
 * holding it is durable; a transaction that fails rolls back its own savepoint and nothing else;
 * reads resolve at once and see this process's writes. Should SQLite roll the whole batch back
 * (I/O error, disk full), every write of the batch is rejected with that error.
 */
export class GroupCommitSqliteDriver implements Driver {
  readonly #lock = new FifoLock();
  readonly #statements = new Map<string, BetterSqlite3.Statement>();
  #batchOpen = false;
  #waiters: Waiter[] = [];
  #commitScheduled = false;

  constructor(
    readonly sqlite: BetterSqlite3.Database,
    private readonly statementCacheSize = 500,
    /** Runs before the connection closes (stops helpers that hold connections of their own). */
    private readonly beforeClose: () => Promise<void> = async () => {},
    readonly counts: StatementCounts = newStatementCounts(),
  ) {}

  async init(): Promise<void> {}

  /**
   * Kysely prepares every query anew; compiling the SQL was a tenth of the engine's CPU time. The
   * application's queries are a few hundred shapes, so their statements are kept and reused (the
   * oldest dropped past the limit). better-sqlite3 runs a statement to completion synchronously,
   * so one statement is never in use twice at once.
   */
  prepare(sql: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.sqlite.prepare(sql);
      if (this.#statements.size >= this.statementCacheSize)
        this.#statements.delete(this.#statements.keys().next().value as string);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#lock.acquire();
    return new Lease(this);
  }

  reacquire(): Promise<void> {
    return this.#lock.acquire();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#release(connection as Lease);
  }

  #release(lease: Lease): void {
    if (lease.released) return;
    lease.released = true;
    this.#lock.release();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    this.#openBatch();
    this.prepare(`savepoint ${UNIT}`).run();
    (connection as Lease).inUnit = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (lease.aborted) throw new Error('the transaction was rolled back by SQLite before it could commit');
    this.prepare(`release ${UNIT}`).run();
    lease.inUnit = false;
    // The unit is whole inside the batch: let the next user in while it waits for the commit.
    const durable = this.#durable();
    this.#release(lease);
    await durable;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    // Not in its unit any more: its commit failed after the connection went to the next user,
    // whose own savepoint must not be touched; or SQLite already rolled the batch back.
    if (!lease.inUnit || lease.aborted) return;
    lease.inUnit = false;
    this.prepare(`rollback to ${UNIT}`).run();
    this.prepare(`release ${UNIT}`).run();
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to "${name}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release "${name}"`));
  }

  execute<R>(lease: Lease, query: CompiledQuery): Promise<QueryResult<R>> {
    if (lease.aborted) return Promise.reject(new Error('the transaction was rolled back by SQLite'));
    let writes = false;
    let result: QueryResult<R>;
    try {
      const statement = this.prepare(query.sql);
      this.counts.statements++;
      const parameters = query.parameters as unknown[];
      writes = !statement.readonly;
      if (writes) this.#openBatch();
      if (statement.reader) result = { rows: statement.all(parameters) as R[] };
      else {
        const { changes, lastInsertRowid } = statement.run(parameters);
        result = { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
      }
    } catch (error) {
      if (this.#batchOpen && !this.sqlite.inTransaction) this.#batchLost(error, lease);
      return Promise.reject(passingFailure(error));
    }
    if (!writes || lease.inUnit) return Promise.resolve(result);
    // The commit needs the connection: hand it on before waiting for it.
    const durable = this.#durable();
    this.#release(lease);
    return durable.then(() => result);
  }

  #openBatch(): void {
    if (this.#batchOpen) return;
    this.prepare('begin immediate').run();
    this.#batchOpen = true;
    // Even a batch whose only unit rolled back must end, or it would hold the write lock.
    if (!this.#commitScheduled) {
      this.#commitScheduled = true;
      setImmediate(() => void this.#commit());
    }
  }

  /** Resolves when what was written so far is committed. */
  #durable(): Promise<void> {
    return new Promise<void>((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  /** Waits its turn behind everyone already queued for the connection, so that they join the batch. */
  async #commit(): Promise<void> {
    await this.#lock.acquire();
    this.#commitScheduled = false;
    try {
      this.#commitHeld();
    } finally {
      this.#lock.release();
    }
  }

  /** Commits the open batch; the caller holds the connection. */
  #commitHeld(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    try {
      if (this.#batchOpen) {
        this.#batchOpen = false;
        this.prepare('commit').run();
        this.counts.commits++;
      }
      for (const waiter of waiters) waiter.resolve();
    } catch (error) {
      if (this.sqlite.inTransaction) this.prepare('rollback').run();
      for (const waiter of waiters) waiter.reject(passingFailure(error));
    }
  }

  /**
   * Takes the connection with no batch open (committing the open one) and keeps it until the
   * returned function is called. Meanwhile queries wait, asynchronously: the event loop goes on.
   * This is the window in which the checkpointer copies the whole WAL into the database file, so
   * that the next write starts the WAL over instead of this thread's backstop checkpoint doing it
   * with an fsync on the event loop.
   */
  async holdWrites(): Promise<() => void> {
    await this.#lock.acquire();
    this.#commitHeld();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#lock.release();
    };
  }

  /** SQLite rolled the whole transaction back: nothing written in this batch will be committed. */
  #batchLost(error: unknown, lease: Lease): void {
    this.#batchOpen = false;
    if (lease.inUnit) lease.aborted = true;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiters) waiter.reject(passingFailure(error));
  }

  async destroy(): Promise<void> {
    if (this.#batchOpen || this.#waiters.length > 0) await this.#commit();
    await this.beforeClose();
    this.sqlite.close();
  }
}

export class GroupCommitSqliteDialect extends SqliteDialect {
  constructor(private readonly driver: GroupCommitSqliteDriver) {
    super({ database: driver.sqlite as never });
  }

  override createDriver(): Driver {
    return this.driver;
  }
}
