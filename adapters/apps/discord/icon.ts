/** Two overlapping speech bubbles: a conversation. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#5865f2"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linejoin="round"><path d="M12 14h28v18H24l-7 6v-6h-5z"/><path d="M44 24h8v18h-5v6l-7-6H28v-4"/></g></svg>';
