import type { Kysely, Migration } from 'kysely';
import { columnTypes } from './column-types.js';

/** Steps may let a run go on past their failure. */
export const stepOptions: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .alterTable('steps')
      .addColumn('continue_on_failure', t.bool, (c) => c.notNull().defaultTo(t.postgres ? false : 0))
      .execute();
  },
};
