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
