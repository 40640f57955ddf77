/** A grid of cells, a table, on Baserow's blue. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#4183c4"/><g fill="#fff"><rect x="14" y="16" width="36" height="8" rx="2"/><rect x="14" y="28" width="16" height="8" rx="2"/><rect x="34" y="28" width="16" height="8" rx="2"/><rect x="14" y="40" width="16" height="8" rx="2"/><rect x="34" y="40" width="16" height="8" rx="2"/></g></svg>';
