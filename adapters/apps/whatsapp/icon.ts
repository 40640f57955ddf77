/** A round speech bubble with a handset-like curve. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#25d366"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><path d="M17 47l3-9a16 16 0 1 1 6 6z"/><path d="M26 26c0 7 5 12 12 12"/></g></svg>';
