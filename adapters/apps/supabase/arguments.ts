import { dynamicDropdown, type KeyValue, keyValueList } from '../sdk/index.js';

export const table = dynamicDropdown({
  label: 'Table',
  required: true,
  dynamicData: 'listTables',
  acceptsVariables: true,
});

export const column = (label: string, description: string) =>
  dynamicDropdown({ label, required: true, description, dynamicData: 'listColumns', dependsOn: ['table'] });

export const values = keyValueList({
  label: 'Columns and values',
  required: true,
  description: 'Postgres casts the text to the column type.',
  acceptsVariables: true,
});

export const where = keyValueList({
  label: 'Where',
  description: 'Rows whose columns equal these values.',
  acceptsVariables: true,
});

export const rowOf = (pairs: readonly KeyValue[]) => Object.fromEntries(pairs.map((pair) => [pair.key, pair.value]));

/** PostgREST filters: `?column=eq.value` for each equality. */
export const filtersOf = (pairs: readonly KeyValue[] | undefined) =>
  Object.fromEntries((pairs ?? []).map((pair) => [pair.key, `eq.${pair.value}`]));

/** Writes answer the rows they touched. */
export const RETURN_ROWS = { prefer: 'return=representation' };
