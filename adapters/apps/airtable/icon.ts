/** A stack of three rounded cells: rows of a table. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#ffbf00"/><g fill="#fff"><rect x="14" y="14" width="36" height="9" rx="3"/><rect x="14" y="27.5" width="36" height="9" rx="3"/><rect x="14" y="41" width="36" height="9" rx="3"/></g></svg>';
