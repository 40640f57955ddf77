interface Waiting<T> {
  readonly row: T;
  resolve(id: string | null): void;
  reject(error: unknown): void;
}

/** Rows per statement: far below both dialects' bound-parameter limits. */
const ROWS_PER_INSERT = 500;

/**
 * A group commit for sends: the jobs sent during one turn of the event loop (by concurrent
 * requests, by handlers) go in as one multi-row insert, and each send resolves once that
 * statement has committed. A commit is the expensive part of a send (on SQLite above all), so
 * this is what lets one process take thousands of jobs a second.
 *
 * `insertMany` inserts rows whose ids are already chosen and returns the ids it really inserted
 * (a singleton conflict skips only its own row).
 */
export const createSendBatcher = <T extends { readonly id: string }>(
  insertMany: (rows: readonly T[]) => Promise<ReadonlySet<string>>,
) => {
  let waiting: Waiting<T>[] = [];
  let scheduled = false;

  const insert = async (batch: readonly Waiting<T>[]) => {
    try {
      const inserted = await insertMany(batch.map((w) => w.row));
      for (const w of batch) w.resolve(inserted.has(w.row.id) ? w.row.id : null);
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  };

  const flush = async () => {
    scheduled = false;
    const all = waiting;
    waiting = [];
    for (let i = 0; i < all.length; i += ROWS_PER_INSERT) await insert(all.slice(i, i + ROWS_PER_INSERT));
  };

  return (row: T): Promise<string | null> =>
    new Promise((resolve, reject) => {
      waiting.push({ row, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => void flush());
      }
    });
};
