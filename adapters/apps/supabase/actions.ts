import { dynamicDropdown, number, restAction, segment, text } from '../sdk/index.js';
import { filtersOf, RETURN_ROWS, rowOf, table, values, where } from './arguments.js';

type Row = Record<string, unknown>;

const needsWhere = (p: { where?: readonly unknown[] }) =>
  p.where?.length ? null : { where: 'must name at least one column: a write to every row is refused.' };

export const createRow = restAction({
  key: 'createRow',
  name: 'Create row',
  description: 'Inserts a row into a table and returns it as stored (defaults and ids filled in).',
  arguments: { table, values },
  request: (p) => ({ method: 'POST', path: `/${segment(p.table)}`, body: rowOf(p.values), headers: RETURN_ROWS }),
  output: (rows: readonly Row[]) => rows[0] ?? null,
});

export const upsertRow = restAction({
  key: 'upsertRow',
  name: 'Create or update row',
  description: 'Inserts a row, or updates the one with the same unique columns; returns it.',
  arguments: {
    table,
    values,
    onConflict: text({
      label: 'Unique columns',
      description: 'The columns that find the existing row, separated by commas; the primary key when empty.',
    }),
  },
  request: (p) => ({
    method: 'POST',
    path: `/${segment(p.table)}`,
    query: { on_conflict: p.onConflict?.replace(/\s+/g, '') || undefined },
    body: rowOf(p.values),
    headers: { prefer: 'return=representation,resolution=merge-duplicates' },
  }),
  output: (rows: readonly Row[]) => rows[0] ?? null,
});

export const updateRows = restAction({
  key: 'updateRows',
  name: 'Update rows',
  description: 'Sets columns of the rows that match; returns them and their count.',
  arguments: { table, values, where },
  check: needsWhere,
  request: (p) => ({
    method: 'PATCH',
    path: `/${segment(p.table)}`,
    query: filtersOf(p.where),
    body: rowOf(p.values),
    headers: RETURN_ROWS,
  }),
  output: (rows: readonly Row[]) => ({ rows, count: rows.length }),
});

export const deleteRows = restAction({
  key: 'deleteRows',
  name: 'Delete rows',
  description: 'Deletes the rows that match; returns them and their count.',
  arguments: { table, where },
  check: needsWhere,
  request: (p) => ({ method: 'DELETE', path: `/${segment(p.table)}`, query: filtersOf(p.where), headers: RETURN_ROWS }),
  output: (rows: readonly Row[]) => ({ rows, count: rows.length }),
});

export const findRows = restAction({
  key: 'findRows',
  name: 'Find rows',
  description: 'Reads the rows that match, in an order, up to a limit.',
  arguments: {
    table,
    where,
    orderBy: dynamicDropdown({
      label: 'Order by',
      description: 'Descending: the newest or largest first.',
      dynamicData: 'listColumns',
      dependsOn: ['table'],
    }),
    limit: number({ label: 'At most', integer: true, min: 1, max: 1000, default: 100 }),
  },
  request: (p) => ({
    path: `/${segment(p.table)}`,
    query: { select: '*', ...filtersOf(p.where), order: p.orderBy ? `${p.orderBy}.desc` : undefined, limit: p.limit },
  }),
  output: (rows: readonly Row[]) => ({ rows, count: rows.length }),
});
