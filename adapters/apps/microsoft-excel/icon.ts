/** A sheet of cells. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#217346"/><g fill="none" stroke="#fff" stroke-width="3.5" stroke-linejoin="round"><rect x="14" y="16" width="36" height="32" rx="3"/><path d="M14 27h36M14 38h36M28 16v32"/></g></svg>';
