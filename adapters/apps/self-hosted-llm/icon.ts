/** A server rack with a spark, in black. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#000000"/><g fill="none" stroke="#fff" stroke-width="3"><rect x="14" y="14" width="36" height="14" rx="3"/><rect x="14" y="36" width="36" height="14" rx="3"/></g><circle cx="42" cy="21" r="2.5" fill="#fff"/><circle cx="42" cy="43" r="2.5" fill="#fff"/></svg>';
