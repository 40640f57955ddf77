/** A node broadcasting: messages published and received. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#660066"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round"><circle cx="20" cy="44" r="3" fill="#fff"/><path d="M17 31a16 16 0 0 1 16 16M17 19a28 28 0 0 1 28 28"/></g></svg>';
