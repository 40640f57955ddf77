import { type DraftContext, paginate } from '../sdk/index.js';
import { byOffset, tableOf, tablesOf } from './api.js';

const chosen = (ctx: DraftContext, key: string) => {
  const value = ctx.parameters[key];
  return typeof value === 'string' && value !== '' ? value : null;
};

/** The table the step names, once its base and table are chosen. */
const chosenTable = async (ctx: DraftContext) => {
  const base = chosen(ctx, 'baseId');
  const table = chosen(ctx, 'tableId');
  return base && table ? tableOf(ctx.http, base, table) : null;
};

/** Automatisch's keys. */
export const airtableDynamicData = {
  async listBases(ctx: DraftContext) {
    const bases = await paginate<{ id: string; name: string }>(ctx.http, { path: '/meta/bases' }, byOffset('bases'));
    return bases.map((base) => ({ name: base.name, value: base.id }));
  },
  async listTables(ctx: DraftContext) {
    const base = chosen(ctx, 'baseId');
    if (!base) return [];
    return (await tablesOf(ctx.http, base)).map((table) => ({ name: table.name, value: table.id }));
  },
  // Formulas name fields, so a field's value is its name.
  listTableFields: async (ctx: DraftContext) =>
    ((await chosenTable(ctx))?.fields ?? []).map((field) => ({ name: field.name, value: field.name })),
  listTableViews: async (ctx: DraftContext) =>
    ((await chosenTable(ctx))?.views ?? []).map((view) => ({ name: view.name, value: view.id })),
};
