import { type SelectQueryBuilder, sql } from 'kysely';
import type { Page, PageRequest } from '../../../core/domain/page.js';
import type { Codec } from '../codec.js';
import type { Database } from '../schema.js';

/**
 * A page of the rows `query` selects from a table with `created_at` and `id`, newest first, and
 * their total.
 */
export const readNewestFirst = async <TB extends keyof Database, Row, T>(
  codec: Codec,
  { page, perPage }: PageRequest,
  query: () => SelectQueryBuilder<Database, TB, object>,
  map: (row: Row) => T,
): Promise<Page<T>> => {
  const { count } = await query()
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  const rows = (await query()
    .selectAll()
    .orderBy(sql`created_at desc, id desc`)
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute()) as Row[];
  return { items: rows.map(map), total: codec.readInt(count as string | number), page, perPage };
};
