/**
 * A backtick-quoted identifier: any name is safe, even one with backticks, quotes, spaces or
 * keywords (a backtick inside is doubled). MySQL refuses empty names and NUL in them.
 */
export const quoteIdentifier = (name: string): string => {
  if (name === '' || name.includes('\0')) throw new Error(`"${name}" is not a valid identifier.`);
  return `\`${name.replaceAll('`', '``')}\``;
};

/** `table` or `database.table`, split (the database null for the connection's own). */
export const tableParts = (name: string): { readonly database: string | null; readonly table: string } => {
  const parts = name
    .trim()
    .split('.')
    .map((part) => part.trim());
  if (parts.length > 2) throw new Error(`"${name}" is not a table name (use table or database.table).`);
  const [first = '', second] = parts;
  return second === undefined ? { database: null, table: first } : { database: first, table: second };
};

/** `table` or `database.table`, each part quoted. */
export const quoteTable = (name: string): string => {
  const { database, table } = tableParts(name);
  return database === null ? quoteIdentifier(table) : `${quoteIdentifier(database)}.${quoteIdentifier(table)}`;
};

export interface Condition {
  readonly key: string;
  readonly value: string;
}

/** `` `a` = ? AND `b` = ? ``: the values are bound as parameters, in the same order. */
export const equalities = (conditions: readonly Condition[], separator: string): string =>
  conditions.map((c) => `${quoteIdentifier(c.key)} = ?`).join(separator);
