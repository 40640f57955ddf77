/** Three linked nodes: a server whose tools are reached over one connection. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#1f2937"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round"><path d="M22 22l20 10M22 42l20-10"/></g><g fill="#fff"><circle cx="20" cy="21" r="6"/><circle cx="20" cy="43" r="6"/><circle cx="44" cy="32" r="7"/></g></svg>';
