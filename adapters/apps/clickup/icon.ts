/** A chevron rising over an arc. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#7b68ee"/><g fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"><path d="M20 30l12-10 12 10"/><path d="M18 42c8 7 20 7 28 0"/></g></svg>';
