/** BigQuery's table schema: fields, nested for RECORD columns, REPEATED for arrays. */
export interface SchemaField {
  readonly name: string;
  readonly type: string;
  readonly mode?: string;
  readonly fields?: readonly SchemaField[];
}

/** A row as the API answers it: `{ f: [{ v }] }`, cells in schema order, nested the same way. */
export interface TableRow {
  readonly f?: readonly { readonly v: unknown }[];
}

/**
 * A cell as JSON: floats and booleans typed, timestamps (seconds since the epoch, as text) in ISO
 * 8601, integers and numerics kept as text (INT64 and NUMERIC exceed a JavaScript number).
 */
const cellValue = (field: SchemaField, value: unknown): unknown => {
  if (value === null || value === undefined) return null;
  if (field.mode === 'REPEATED') {
    const items = Array.isArray(value) ? value : [];
    return items.map((item) => cellValue({ ...field, mode: 'NULLABLE' }, (item as { v: unknown }).v));
  }
  switch (field.type) {
    case 'RECORD':
    case 'STRUCT':
      return rowObject(field.fields ?? [], value as TableRow);
    case 'FLOAT':
    case 'FLOAT64':
      return Number(value);
    case 'BOOLEAN':
    case 'BOOL':
      return value === true || value === 'true';
    case 'TIMESTAMP': {
      const seconds = Number(value);
      return Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : value;
    }
    default:
      return value;
  }
};

export const rowObject = (fields: readonly SchemaField[], row: TableRow): Record<string, unknown> =>
  Object.fromEntries(fields.map((field, index) => [field.name, cellValue(field, row.f?.[index]?.v)]));

export const rowObjects = (fields: readonly SchemaField[] | undefined, rows: readonly TableRow[] | undefined) =>
  (rows ?? []).map((row) => rowObject(fields ?? [], row));
