/** Two stacked chevrons on Jira's blue. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0052cc"/><g fill="none" stroke="#fff" stroke-width="6" stroke-linejoin="round"><path d="M32 14 18 28l14 14 14-14z"/><path d="M24 42l8 8 8-8" stroke-linecap="round"/></g></svg>';
