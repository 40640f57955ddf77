/** Four tiles held together, in black. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#000000"/><g fill="#fff"><rect x="14" y="14" width="16" height="16" rx="4"/><rect x="34" y="14" width="16" height="16" rx="8"/><rect x="14" y="34" width="16" height="16" rx="8"/></g><rect x="34" y="34" width="16" height="16" rx="4" fill="#0f6fff"/></svg>';
