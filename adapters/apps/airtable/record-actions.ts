import {
  type AppContext,
  defineAction,
  dropdown,
  dynamicDropdown,
  parseParameters,
  segment,
  text,
} from '../sdk/index.js';
import { type AirtableRecord, formulaText, recordsPath, tableOf } from './api.js';
import { baseId, tableId } from './arguments.js';
import { recordFields, recordValues } from './fields.js';

/** The record's fields from the step's dynamic fields, checked against the table as it is now. */
const writtenFields = async (ctx: AppContext<{ baseId: string; tableId: string }>) => {
  const table = await tableOf(ctx.http, ctx.parameters.baseId, ctx.parameters.tableId);
  if (!table) throw new Error(`The base has no table ${ctx.parameters.tableId}.`);
  return recordValues(table, parseParameters(recordFields(table), ctx.parameters));
};

/** Automatisch's arguments: the table's fields are dynamic fields, keyed by their names. */
export const createRecord = defineAction({
  key: 'createRecord',
  name: 'Create record',
  description: 'Creates a record in a table; outputs the record.',
  dynamicFieldsKey: 'listFields',
  arguments: { baseId, tableId },
  async run(ctx) {
    const { data } = await ctx.http.request<AirtableRecord>({
      method: 'POST',
      path: recordsPath(ctx.parameters.baseId, ctx.parameters.tableId),
      // typecast: Airtable turns text into numbers, dates and options, as Automatisch asks.
      body: { fields: await writtenFields(ctx), typecast: true },
    });
    return data;
  },
});

export const updateRecord = defineAction({
  key: 'updateRecord',
  name: 'Update record',
  description: 'Sets fields of a record, leaving the others; outputs the record.',
  dynamicFieldsKey: 'listFields',
  arguments: {
    baseId,
    tableId,
    recordId: text({ label: 'Record ID', required: true, placeholder: 'rec…', acceptsVariables: true }),
  },
  async run(ctx) {
    const { baseId: base, tableId: table, recordId } = ctx.parameters;
    const { data } = await ctx.http.request<AirtableRecord>({
      method: 'PATCH',
      path: `${recordsPath(base, table)}/${segment(recordId)}`,
      body: { fields: await writtenFields(ctx), typecast: true },
    });
    return data;
  },
});

/** Automatisch's arguments. */
export const findRecord = defineAction({
  key: 'findRecord',
  name: 'Find record',
  description:
    'Finds records by a field and a value, or by an Airtable formula; outputs `{ records }`, the first 100 found.',
  arguments: {
    baseId,
    tableId,
    tableField: dynamicDropdown({
      label: 'Search by field',
      dynamicData: 'listTableFields',
      dependsOn: ['baseId', 'tableId'],
      acceptsVariables: true,
    }),
    searchValue: text({
      label: 'Search value',
      description: 'The value to find; dates in ISO format (2025-06-30).',
      acceptsVariables: true,
    }),
    exactMatch: dropdown({
      label: 'Search for exact match?',
      required: true,
      default: 'true',
      description: 'No compares without case.',
      options: [
        { label: 'Yes', value: 'true' },
        { label: 'No', value: 'false' },
      ],
    }),
    searchFormula: text({
      label: 'Search formula',
      description: 'An Airtable formula instead, e.g. AND({Status} = "Done", {Points} > 3).',
      acceptsVariables: true,
    }),
    limitToView: dynamicDropdown({
      label: 'Limit to view',
      dynamicData: 'listTableViews',
      dependsOn: ['baseId', 'tableId'],
      acceptsVariables: true,
    }),
  },
  check: (p) =>
    p.tableField || p.searchFormula ? null : { tableField: 'choose a field to search by, or write a formula.' },
  async run(ctx) {
    const {
      baseId: base,
      tableId: table,
      tableField,
      searchValue = '',
      exactMatch,
      searchFormula,
      limitToView,
    } = ctx.parameters;
    const field = tableField ? `{${tableField.replace(/}/g, '\\}')}}` : null;
    const formula = field
      ? exactMatch === 'true'
        ? `${field} = ${formulaText(searchValue)}`
        : `LOWER(${field}) = LOWER(${formulaText(searchValue)})`
      : searchFormula;
    const { data } = await ctx.http.request<{ records: AirtableRecord[] }>({
      method: 'POST',
      path: `${recordsPath(base, table)}/listRecords`,
      body: { filterByFormula: formula, view: limitToView, pageSize: 100, maxRecords: 100 },
    });
    return { records: data.records };
  },
});
