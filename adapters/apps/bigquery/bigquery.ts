import { createHash } from 'node:crypto';
import { type HttpClient, segment } from '../sdk/index.js';
import { rowObjects, type SchemaField, type TableRow } from './rows.js';

export const V2 = '/bigquery/v2';

export const projectPath = (projectId: string) => `${V2}/projects/${segment(projectId)}`;
export const datasetPath = (projectId: string, datasetId: string) =>
  `${projectPath(projectId)}/datasets/${segment(datasetId)}`;
export const tablePath = (projectId: string, datasetId: string, tableId: string) =>
  `${datasetPath(projectId, datasetId)}/tables/${segment(tableId)}`;

/**
 * A table name in GoogleSQL: quoted in backticks, so that any project, dataset or table id is one
 * name. Ids holding a backtick, a backslash or a line break are refused rather than escaped.
 */
export const quotedName = (...parts: readonly string[]): string => {
  for (const part of parts) {
    if (part === '' || /[`\\\r\n]/.test(part)) throw new Error(`"${part}" is not a BigQuery name.`);
  }
  return `\`${parts.join('.')}\``;
};

/** A request id of the form BigQuery asks (at most 36 characters), the same for each retry of a step. */
export const requestIdFor = (idempotencyKey: string) => {
  const hex = createHash('sha256').update(idempotencyKey).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

interface QueryAnswer {
  readonly jobComplete?: boolean;
  readonly jobReference?: { readonly projectId: string; readonly jobId: string; readonly location?: string };
  readonly schema?: { readonly fields?: readonly SchemaField[] };
  readonly rows?: readonly TableRow[];
  readonly totalRows?: string;
  readonly totalBytesProcessed?: string;
}

export interface QueryResult {
  readonly rows: Record<string, unknown>[];
  readonly totalRows: number;
  readonly jobId: string | null;
  readonly totalBytesProcessed: string | null;
}

/** How long a step waits for a query: BigQuery answers within `timeoutMs`, then it asks again. */
const WAIT_MS = 10_000;
const MAX_WAITS = 6;

/**
 * Runs a GoogleSQL query (`jobs.query`), waiting for it with `getQueryResults` when BigQuery
 * answers before it is done: its rows as objects (up to `maxResults`).
 */
export const runQuery = async (
  http: HttpClient,
  projectId: string,
  request: Readonly<Record<string, unknown>> & { readonly maxResults: number },
): Promise<QueryResult> => {
  let { data } = await http.request<QueryAnswer>({
    method: 'POST',
    path: `${projectPath(projectId)}/queries`,
    body: { useLegacySql: false, timeoutMs: WAIT_MS, ...request },
    timeoutMs: WAIT_MS + 20_000,
  });
  for (let waits = 0; data.jobComplete === false && waits < MAX_WAITS; waits++) {
    const job = data.jobReference;
    if (!job) break;
    ({ data } = await http.request<QueryAnswer>({
      path: `${projectPath(job.projectId)}/queries/${segment(job.jobId)}`,
      query: { timeoutMs: WAIT_MS, maxResults: request.maxResults, ...(job.location && { location: job.location }) },
      timeoutMs: WAIT_MS + 20_000,
    }));
  }
  if (data.jobComplete === false) throw new Error('The query was still running after a minute; its rows are not read.');
  return {
    rows: rowObjects(data.schema?.fields, data.rows),
    totalRows: Number(data.totalRows ?? 0),
    jobId: data.jobReference?.jobId ?? null,
    totalBytesProcessed: data.totalBytesProcessed ?? null,
  };
};
