/** A table of rows and columns. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#336791"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><rect x="15" y="17" width="34" height="30" rx="3"/><path d="M15 27h34M15 37h34M28 17v30"/></g></svg>';
