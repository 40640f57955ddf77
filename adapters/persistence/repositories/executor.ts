import type { Kysely } from 'kysely';
import type { SecretBox } from '../../../ports/secret-box.js';
import type { Codec } from '../codec.js';
import type { Database } from '../schema.js';

/** What every repository is built from: a connection or a transaction, and the dialect's codec. */
export interface Executor {
  readonly db: Kysely<Database>;
  readonly codec: Codec;
  /** Seals secrets (credentials, client secrets) before they reach a column. */
  readonly secretBox: SecretBox;
}

/** Runs `work` in the executor's transaction, or in a new one when it is not in one. */
export const withinTransaction = <T>(executor: Executor, work: (tx: Executor) => Promise<T>): Promise<T> =>
  executor.db.isTransaction
    ? work(executor)
    : executor.db.transaction().execute((trx) => work({ ...executor, db: trx }));
