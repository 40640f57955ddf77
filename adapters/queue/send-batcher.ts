interface Waiting<T> {
  readonly row: T;
  resolve(id: string | null): void;
  reject(error: unknown): void;
}

/** Rows per statement: far below both dialects' bound-parameter limits. */
const ROWS_PER_INSERT = 500;

/**
 * Inserts under way at once. Sends that arrive while both are under way wait for one to end and
 * then go in together: the busier the database, the longer an insert takes and the more sends
 * share the next one, while a lone send still goes at once.
 */
const MAX_IN_FLIGHT = 2;

/**
 * A group commit for sends: the jobs sent during one turn of the event loop (by concurrent
 * requests, by handlers), or while earlier inserts are under way, go in as one multi-row insert,
 * and each send resolves once that statement has committed. A commit (and on Postgres a round
 * trip) is the expensive part of a send, so this is what lets one process take thousands of jobs
 * a second.
 *
 * `insertMany` inserts rows whose ids are already chosen and returns the ids it really inserted
 * (a singleton conflict skips only its own row).
 */
export const createSendBatcher = <T extends { readonly id: string }>(
  insertMany: (rows: readonly T[]) => Promise<ReadonlySet<string>>,
) => {
  const waiting: Waiting<T>[] = [];
  let scheduled = false;
  let inFlight = 0;

  const insert = async (batch: readonly Waiting<T>[]) => {
    try {
      const inserted = await insertMany(batch.map((w) => w.row));
      for (const w of batch) w.resolve(inserted.has(w.row.id) ? w.row.id : null);
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };

  function flush() {
    scheduled = false;
    while (inFlight < MAX_IN_FLIGHT && waiting.length > 0) {
      const batch = waiting.splice(0, ROWS_PER_INSERT);
      inFlight++;
      void insert(batch).finally(() => {
        inFlight--;
        if (waiting.length > 0) schedule();
      });
    }
  }

  return (row: T): Promise<string | null> =>
    new Promise((resolve, reject) => {
      waiting.push({ row, resolve, reject });
      schedule();
    });
};
