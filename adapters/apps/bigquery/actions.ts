import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { boolean, defineAction, json, keyValueList, number, text } from '../sdk/index.js';
import { dataset, project, table } from './arguments.js';
import { requestIdFor, runQuery, tablePath } from './bigquery.js';

const rowsSchema = v.pipe(
  v.union(
    // The list first: valibot's record takes a list too (its indexes as keys).
    [v.array(v.record(v.string(), v.unknown())), v.record(v.string(), v.unknown())],
    'must be an object (one row) or a list of objects.',
  ),
  v.transform((value) => (Array.isArray(value) ? value : [value])),
  v.minLength(1, 'must hold at least one row.'),
  v.maxLength(10_000, 'must hold at most 10,000 rows (BigQuery’s limit for one request).'),
);

interface InsertAnswer {
  readonly insertErrors?: readonly {
    readonly index: number;
    readonly errors?: readonly { readonly reason?: string; readonly message?: string; readonly location?: string }[];
  }[];
}

export const insertRows = defineAction({
  key: 'insertRows',
  name: 'Insert rows',
  description: 'Streams rows into a table (tabledata.insertAll).',
  arguments: {
    projectId: project,
    datasetId: dataset,
    tableId: table,
    rows: json({
      label: 'Rows',
      required: true,
      description: 'One row as a JSON object of column values, or a list of them.',
      acceptsVariables: true,
      schema: rowsSchema,
    }),
    skipInvalidRows: boolean({
      label: 'Skip invalid rows',
      description: 'Insert the valid rows when some are not.',
      default: false,
    }),
    ignoreUnknownValues: boolean({ label: 'Ignore unknown columns', default: false }),
  },
  async run(ctx) {
    const { projectId, datasetId, tableId, rows, skipInvalidRows, ignoreUnknownValues } = ctx.parameters;
    // insertId makes BigQuery drop a row it received a minute before: a retried step inserts once.
    const base = ctx.execution ? createHash('sha256').update(ctx.execution.idempotencyKey).digest('hex') : null;
    const { data } = await ctx.http.request<InsertAnswer>({
      method: 'POST',
      path: `${tablePath(projectId, datasetId, tableId)}/insertAll`,
      body: {
        skipInvalidRows,
        ignoreUnknownValues,
        rows: rows.map((json, index) => ({ ...(base && { insertId: `${base}-${index}` }), json })),
      },
    });
    const failed = data.insertErrors ?? [];
    if (failed.length > 0 && !skipInvalidRows) {
      // The rows BigQuery did not insert only because another was invalid say `stopped`.
      const first = failed
        .flatMap((entry) => (entry.errors ?? []).map((error) => ({ index: entry.index, ...error })))
        .find((error) => error.reason !== 'stopped');
      const where = `row ${first?.index ?? failed[0]?.index}${first?.location ? `, ${first.location}` : ''}`;
      throw new Error(`BigQuery refused the rows: ${where}: ${first?.message ?? 'invalid'}.`);
    }
    return { insertedRows: rows.length - failed.length, insertErrors: failed };
  },
});

export const runQueryAction = defineAction({
  key: 'runQuery',
  name: 'Run query',
  description: 'Runs a GoogleSQL query and returns its rows.',
  arguments: {
    projectId: project,
    query: text({
      label: 'Query',
      required: true,
      description: 'GoogleSQL; @name stands for the parameter of that name.',
      acceptsVariables: true,
    }),
    queryParameters: keyValueList({
      label: 'Parameters',
      description: 'Values for @name in the query, as text (CAST them in the query for other types).',
      acceptsVariables: true,
    }),
    maxResults: number({ label: 'Rows at most', integer: true, min: 1, max: 10_000, default: 1000 }),
    location: text({ label: 'Location', description: 'Where the data is, when not US or EU (asia-northeast1...).' }),
  },
  async run(ctx) {
    const { projectId, query, queryParameters, maxResults, location } = ctx.parameters;
    const parameters = (queryParameters ?? []).map(({ key, value }) => ({
      name: key,
      parameterType: { type: 'STRING' },
      parameterValue: { value },
    }));
    return runQuery(ctx.http, projectId, {
      query,
      maxResults,
      ...(location && { location }),
      ...(parameters.length > 0 && { parameterMode: 'NAMED', queryParameters: parameters }),
      // The same id on each retry: BigQuery runs the query once.
      ...(ctx.execution && { requestId: requestIdFor(ctx.execution.idempotencyKey) }),
    });
  },
});
