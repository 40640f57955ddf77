const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The field named by a unique-constraint error from either driver, or null when the error is not
 * one. SQLite says "UNIQUE constraint failed: users.email"; Postgres sets code 23505 and a detail
 * "Key (email)=(...) already exists."
 */
export const uniqueViolationField = (error: unknown): string | null => {
  if (typeof error !== 'object' || error === null) return null;
  const { code, message, detail } = error as { code?: unknown; message?: unknown; detail?: unknown };
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const column = /constraint failed: \w+\.(\w+)/.exec(String(message))?.[1];
    return column ? camel(column) : 'general';
  }
  if (code === '23505') {
    const column = /^Key \((?:\w+\()?"?(\w+)/.exec(String(detail))?.[1];
    return column ? camel(column) : 'general';
  }
  return null;
};
