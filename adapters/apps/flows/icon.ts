/** Two flows joined: one hands over to the other. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0f766e"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><rect x="11" y="14" width="16" height="14" rx="3"/><rect x="37" y="36" width="16" height="14" rx="3"/><path d="M27 21h8a4 4 0 0 1 4 4v11"/><path d="m35 32 4 4 4-4"/></g></svg>';
