/** Angle brackets around a slash: source code. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#111827"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><path d="M24 22 14 32l10 10M40 22l10 10-10 10M35 18l-6 28"/></g></svg>';
