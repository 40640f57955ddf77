/** A ring with a stroke through it, around a message line. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#1e325c"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round"><circle cx="32" cy="32" r="17"/><path d="M24 32h16M24 25h10M24 39h13"/></g></svg>';
