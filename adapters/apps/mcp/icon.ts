/** A plug with three prongs, joined to a tool's head: a service others plug into. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#ff6b35"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><path d="M20 14v10M32 14v10M44 14v10"/><path d="M16 24h32v8a16 16 0 0 1-32 0z"/><path d="M32 48v6"/></g></svg>';
