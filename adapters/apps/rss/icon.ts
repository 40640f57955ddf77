/** The feed waves. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#f97316"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><circle cx="21" cy="43" r="2"/><path d="M19 31a14 14 0 0 1 14 14M19 19a26 26 0 0 1 26 26"/></g></svg>';
