import { byPageToken } from '../google-common/index.js';
import { type DraftContext, paginate } from '../sdk/index.js';
import { datasetPath, projectPath, tablePath, V2 } from './bigquery.js';
import type { SchemaField } from './rows.js';

const draftText = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export const listProjects = async (ctx: DraftContext) => {
  const projects = await paginate<{ id: string; friendlyName?: string; projectReference: { projectId: string } }>(
    ctx.http,
    { path: `${V2}/projects`, query: { maxResults: 1000 } },
    byPageToken('projects'),
  );
  return projects.map((entry) => ({
    name: entry.friendlyName ?? entry.projectReference.projectId,
    value: entry.projectReference.projectId,
  }));
};

export const listDatasets = async (ctx: DraftContext) => {
  const projectId = draftText(ctx.parameters.projectId);
  if (!projectId) return [];
  const datasets = await paginate<{ datasetReference: { datasetId: string } }>(
    ctx.http,
    { path: `${projectPath(projectId)}/datasets`, query: { maxResults: 1000 } },
    byPageToken('datasets'),
  );
  return datasets.map(({ datasetReference }) => ({
    name: datasetReference.datasetId,
    value: datasetReference.datasetId,
  }));
};

export interface TableEntry {
  readonly tableReference: { readonly tableId: string };
  readonly creationTime?: string;
  readonly type?: string;
}

export const tablesOf = (ctx: Pick<DraftContext, 'http'>, projectId: string, datasetId: string) =>
  paginate<TableEntry>(
    ctx.http,
    { path: `${datasetPath(projectId, datasetId)}/tables`, query: { maxResults: 1000 } },
    byPageToken('tables'),
  );

export const listTables = async (ctx: DraftContext) => {
  const projectId = draftText(ctx.parameters.projectId);
  const datasetId = draftText(ctx.parameters.datasetId);
  if (!projectId || !datasetId) return [];
  const tables = await tablesOf(ctx, projectId, datasetId);
  return tables.map(({ tableReference }) => ({ name: tableReference.tableId, value: tableReference.tableId }));
};

/** The table's top-level columns, for the column a trigger orders by. */
export const listColumns = async (ctx: DraftContext) => {
  const projectId = draftText(ctx.parameters.projectId);
  const datasetId = draftText(ctx.parameters.datasetId);
  const tableId = draftText(ctx.parameters.tableId);
  if (!projectId || !datasetId || !tableId) return [];
  const { data } = await ctx.http.request<{ schema?: { fields?: SchemaField[] } }>({
    path: tablePath(projectId, datasetId, tableId),
  });
  return (data.schema?.fields ?? []).map((field) => ({ name: `${field.name} (${field.type})`, value: field.name }));
};
