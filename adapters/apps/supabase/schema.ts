import type { DraftContext } from '../sdk/index.js';

/** What the Data API's root describes (OpenAPI 2.0): a path per table and view, their columns. */
interface Description {
  readonly paths?: Record<string, unknown>;
  readonly definitions?: Record<string, { readonly properties?: Record<string, { readonly format?: string }> }>;
}

const describe = async (ctx: DraftContext) => (await ctx.http.request<Description>({ path: '/' })).data;

/** The tables and views of the exposed schema; functions (`/rpc/...`) are not rows. */
export const listTables = async (ctx: DraftContext) => {
  const { paths = {} } = await describe(ctx);
  return Object.keys(paths)
    .filter((path) => path !== '/' && !path.startsWith('/rpc/'))
    .map((path) => path.slice(1))
    .sort()
    .map((table) => ({ name: table, value: table }));
};

/** The columns of the step's `table`, with their Postgres types. */
export const listColumns = async (ctx: DraftContext) => {
  const table = ctx.parameters.table;
  if (typeof table !== 'string' || table === '') return [];
  const { definitions = {} } = await describe(ctx);
  return Object.entries(definitions[table]?.properties ?? {}).map(([column, { format }]) => ({
    name: format ? `${column} (${format})` : column,
    value: column,
  }));
};
