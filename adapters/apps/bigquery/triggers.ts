import { defineTrigger, dynamicDropdown } from '../sdk/index.js';
import { dataset, project, table } from './arguments.js';
import { quotedName, runQuery } from './bigquery.js';
import { tablesOf } from './dynamic-data.js';

const ROWS_PER_POLL = 100;

/**
 * New rows by a column that grows with each row (an id, a creation time): the 100 highest, by that
 * column's value. Each poll is a query, billed by the bytes of the columns it reads.
 */
export const newRows = defineTrigger({
  key: 'newRows',
  name: 'New rows',
  description: 'Triggers when rows are added to a table, found by a column that grows (an id, a timestamp).',
  type: 'polling',
  arguments: {
    projectId: project,
    datasetId: dataset,
    tableId: table,
    orderColumn: dynamicDropdown({
      label: 'Ordered by',
      required: true,
      description: 'A column whose value is higher in each new row (an increasing id, a creation time).',
      acceptsVariables: true,
      dynamicData: 'listColumns',
      dependsOn: ['projectId', 'datasetId', 'tableId'],
    }),
  },
  async run(ctx) {
    const { projectId, datasetId, tableId, orderColumn } = ctx.parameters;
    const sql = `SELECT * FROM ${quotedName(projectId, datasetId, tableId)} ORDER BY ${quotedName(orderColumn)} DESC LIMIT ${ROWS_PER_POLL}`;
    const { rows } = await runQuery(ctx.http, projectId, { query: sql, maxResults: ROWS_PER_POLL });
    return rows
      .filter((row) => row[orderColumn] !== null && row[orderColumn] !== undefined)
      .map((row) => ({ id: String(row[orderColumn]), data: row }));
  },
});

export const newTables = defineTrigger({
  key: 'newTables',
  name: 'New tables',
  description: 'Triggers when a table (or view) is created in a dataset.',
  type: 'polling',
  arguments: { projectId: project, datasetId: dataset },
  async run(ctx) {
    const tables = await tablesOf(ctx, ctx.parameters.projectId, ctx.parameters.datasetId);
    return tables
      .sort((a, b) => Number(b.creationTime ?? 0) - Number(a.creationTime ?? 0))
      .map((entry) => ({ id: entry.tableReference.tableId, data: entry }));
  },
});
