/** Three rounded bars rising, like a board's progress. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#f62b54"/><g fill="#fff"><rect x="13" y="30" width="9" height="20" rx="4.5"/><rect x="27.5" y="22" width="9" height="28" rx="4.5"/><rect x="42" y="14" width="9" height="36" rx="4.5"/></g></svg>';
