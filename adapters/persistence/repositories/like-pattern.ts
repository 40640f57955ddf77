/** A case-insensitive substring pattern for `lower(column) like ? escape '\'`: `%` and `_` typed by the user match literally. */
export const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
