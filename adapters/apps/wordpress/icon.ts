/** A page with its lines, on WordPress's charcoal. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#464342"/><rect x="18" y="14" width="28" height="36" rx="3" fill="#fff"/><g stroke="#464342" stroke-width="3" stroke-linecap="round"><path d="M24 24h16M24 31h16M24 38h10"/></g></svg>';
