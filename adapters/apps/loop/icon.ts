/** A circular arrow: the same steps once per item. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#7c3aed"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><path d="M46 24a16 16 0 1 0 2 14"/><path d="M47 14v10H37"/></g></svg>';
