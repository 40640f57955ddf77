/** A rounded square in Pipedrive's green with a white lower-case p. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#017737"/><g fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round"><path d="M24 18v32"/><circle cx="34" cy="28" r="10"/></g></svg>';
