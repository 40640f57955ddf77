import * as v from 'valibot';
import { type Argument, type DraftContext, describeArguments, dropdown, json, text } from '../sdk/index.js';
import { type Field, type Table, tableOf } from './api.js';

/** Fields Airtable computes: a record's write cannot set them. */
const COMPUTED = new Set([
  'formula',
  'rollup',
  'count',
  'lookup',
  'multipleLookupValues',
  'createdTime',
  'lastModifiedTime',
  'createdBy',
  'lastModifiedBy',
  'autoNumber',
  'button',
  'externalSyncSource',
  'aiText',
]);

/** Several options: a JSON list of them, or Automatisch's rows (`[{ value }]`); empty ones dropped. */
const optionList = v.pipe(
  v.array(v.union([v.string(), v.object({ value: v.optional(v.nullable(v.string())) })]), 'must be a list of options.'),
  v.transform((items) =>
    items.map((item) => (typeof item === 'string' ? item : (item.value ?? ''))).filter((item) => item !== ''),
  ),
);

const choices = (field: Field) =>
  (field.options?.choices ?? []).map((choice) => ({ label: choice.name, value: choice.id }));

/** The step field for a table field, keyed by its name as in Automatisch; null for computed ones. */
const argumentFor = (field: Field): Argument<unknown> | null => {
  if (COMPUTED.has(field.type)) return null;
  switch (field.type) {
    case 'singleSelect':
      return dropdown({ label: field.name, acceptsVariables: true, options: choices(field) });
    case 'multipleSelects':
      return json({
        label: field.name,
        description: `Option ids or names, as a JSON list: ${choices(field)
          .map((choice) => choice.label)
          .join(', ')}.`,
        acceptsVariables: true,
        schema: optionList,
      });
    case 'checkbox':
      return dropdown({
        label: field.name,
        options: [
          { label: 'Yes', value: 'true' },
          { label: 'No', value: 'false' },
        ],
      });
    default:
      return text({ label: field.name, acceptsVariables: true });
  }
};

export const recordFields = (table: Table) =>
  Object.fromEntries(
    table.fields.flatMap((field) => {
      const argument = argumentFor(field);
      return argument ? [[field.name, argument]] : [];
    }),
  ) as Record<string, Argument<unknown>>;

/** The `fields` of a record write: what was given, by field name; checkboxes as booleans. */
export const recordValues = (table: Table, values: Readonly<Record<string, unknown>>) =>
  Object.fromEntries(
    Object.entries(values).flatMap(([name, value]) => {
      if (value === undefined || (Array.isArray(value) && value.length === 0)) return [];
      const type = table.fields.find((field) => field.name === name)?.type;
      return [[name, type === 'checkbox' ? value === 'true' : value]];
    }),
  );

/** Automatisch's `listFields`: the chosen table's writable fields. */
export const listFields = async (ctx: DraftContext) => {
  const { baseId, tableId } = ctx.parameters;
  if (typeof baseId !== 'string' || typeof tableId !== 'string' || !baseId || !tableId) return [];
  const table = await tableOf(ctx.http, baseId, tableId);
  return table ? describeArguments(recordFields(table)) : [];
};
