/** A double-quoted identifier: any name is safe, even one with quotes, spaces or keywords. */
export const quoteIdentifier = (name: string): string => {
  if (name === '' || name.includes('\0')) throw new Error(`"${name}" is not a valid identifier.`);
  return `"${name.replaceAll('"', '""')}"`;
};

/** `table` or `schema.table`, each part quoted. */
export const quoteTable = (name: string): string => {
  const parts = name.trim().split('.');
  if (parts.length > 2) throw new Error(`"${name}" is not a table name (use table or schema.table).`);
  return parts.map((part) => quoteIdentifier(part.trim())).join('.');
};

export interface Condition {
  readonly key: string;
  readonly value: string;
}

/** `"a" = $n AND "b" = $n+1`, numbering placeholders after `offset` earlier ones. */
export const equalities = (conditions: readonly Condition[], offset: number, separator: string) =>
  conditions.map((c, i) => `${quoteIdentifier(c.key)} = $${offset + i + 1}`).join(separator);

/** Postgres keeps 63 bytes of a name (NAMEDATALEN - 1) and cuts longer ones silently. */
const MAX_IDENTIFIER_BYTES = 63;

/** The `check` of an argument that names one identifier (a channel): a message, or null when it is one. */
export const identifierCheck = (name: string): string | null => {
  if (name.includes('\0')) return 'must not contain a NUL character.';
  if (Buffer.byteLength(name) > MAX_IDENTIFIER_BYTES) return `must be at most ${MAX_IDENTIFIER_BYTES} bytes long.`;
  return null;
};
