import { keyValueList, number, restAction, text } from '../sdk/index.js';
import { rowId, tableId, values } from './arguments.js';
import { BY_NAME, type Row, rowPath, rowsPath, valuesOf } from './rows.js';

export const createRow = restAction({
  key: 'createRow',
  name: 'Create row',
  description: 'Adds a row to a table and returns it.',
  arguments: { tableId, values },
  request: (p) => ({ method: 'POST', path: rowsPath(p.tableId), query: BY_NAME, body: valuesOf(p.values) }),
});

export const updateRow = restAction({
  key: 'updateRow',
  name: 'Update row',
  description: 'Changes the fields given of a row (the others stay) and returns it.',
  arguments: { tableId, rowId, values },
  request: (p) => ({ method: 'PATCH', path: rowPath(p.tableId, p.rowId), query: BY_NAME, body: valuesOf(p.values) }),
});

export const deleteRow = restAction({
  key: 'deleteRow',
  name: 'Delete row',
  description: 'Deletes a row (Baserow keeps it in its trash for a while).',
  arguments: { tableId, rowId },
  request: (p) => ({ method: 'DELETE', path: rowPath(p.tableId, p.rowId) }),
  output: (_data, p) => ({ tableId: p.tableId, rowId: p.rowId, deleted: true }),
});

export const getRow = restAction({
  key: 'getRow',
  name: 'Get row',
  description: 'Reads a row by its id.',
  arguments: { tableId, rowId },
  request: (p) => ({ path: rowPath(p.tableId, p.rowId), query: BY_NAME }),
});

export const findRows = restAction({
  key: 'findRows',
  name: 'Find rows',
  description: 'Reads the rows that match a search and field equalities, up to a limit.',
  arguments: {
    tableId,
    search: text({ label: 'Search', description: 'Text found in any field.', acceptsVariables: true }),
    filters: keyValueList({ label: 'Where', description: 'Fields equal to these values.', acceptsVariables: true }),
    orderBy: text({ label: 'Order by', description: 'Field names separated by commas; -name for descending.' }),
    limit: number({ label: 'At most', integer: true, min: 1, max: 200, default: 100 }),
  },
  request: (p) => ({
    path: rowsPath(p.tableId),
    query: {
      ...BY_NAME,
      size: p.limit,
      search: p.search,
      order_by: p.orderBy,
      ...Object.fromEntries((p.filters ?? []).map((f) => [`filter__${f.key}__equal`, f.value])),
    },
  }),
  output: (data: { count: number; results: readonly Row[] }) => ({ rows: data.results, count: data.count }),
});
