/** A cloud. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0364b8"/><path fill="#fff" d="M20 44a9 9 0 0 1-1-17.9A12 12 0 0 1 41.6 23 10.5 10.5 0 0 1 45 44z"/></svg>';
