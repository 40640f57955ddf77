/** An envelope: mail sent. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#2daae1"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><rect x="14" y="20" width="36" height="25" rx="3"/><path d="m15 22 17 13 17-13"/></g></svg>';
