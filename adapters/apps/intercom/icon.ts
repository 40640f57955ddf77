/** A message box with a smile of bars on Intercom's blue. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#1f8ded"/><rect x="14" y="14" width="36" height="36" rx="7" fill="#fff"/><path d="M22 22v12M28 20v16M36 20v16M42 22v12" stroke="#1f8ded" stroke-width="3" stroke-linecap="round"/><path d="M21 40c7 4 15 4 22 0" fill="none" stroke="#1f8ded" stroke-width="3" stroke-linecap="round"/></svg>';
