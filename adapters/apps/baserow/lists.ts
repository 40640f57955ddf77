import type { DraftContext } from '../sdk/index.js';
import { fieldsOf, rowPages } from './rows.js';

const tableOf = (ctx: DraftContext) => {
  const table = ctx.parameters.tableId;
  return typeof table === 'string' && table !== '' ? table : typeof table === 'number' ? String(table) : null;
};

/** The tables the token may reach (one list, not paged: Baserow answers it whole). */
export const listTables = async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<readonly { id: number; name: string; database_id: number }[]>({
    path: '/api/database/tables/all-tables/',
  });
  return data.map((table) => ({ name: table.name, value: String(table.id) }));
};

export const listFields = async (ctx: DraftContext) => {
  const table = tableOf(ctx);
  if (!table) return [];
  const fields = await fieldsOf(ctx.http, table);
  return fields.map((field) => ({ name: `${field.name} (${field.type})`, value: field.name }));
};

/** The table's rows, named by their primary field, through every page. */
export const listRows = async (ctx: DraftContext) => {
  const table = tableOf(ctx);
  if (!table) return [];
  const primary = (await fieldsOf(ctx.http, table)).find((field) => field.primary)?.name;
  const rows = await rowPages(ctx.http, table, {});
  return rows.map((row) => {
    const label = primary === undefined ? null : row[primary];
    return {
      name: label === null || label === undefined || label === '' ? `#${row.id}` : `${String(label)} (#${row.id})`,
      value: String(row.id),
    };
  });
};
