/**
 * A value from mysql2 made JSON-safe, so that what a step outputs is what the flow stores: BigInt
 * becomes a number when exact (else text), a Buffer (BLOB, BINARY, BIT) base64 text, a Date its ISO
 * text; objects and arrays (JSON columns) are converted inside. Dates and times normally arrive as
 * the server's text already (`dateStrings`), and integers past 2^53 as text (`supportBigNumbers`).
 */
export const jsonSafe = (value: unknown): unknown => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, jsonSafe(item)]));
  }
  return value;
};

export type Row = Readonly<Record<string, unknown>>;

export const jsonSafeRows = (rows: readonly Row[]): Row[] => rows.map((row) => jsonSafe(row) as Row);
