/** An inbox tray with a letter dropping in. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0f766e"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><path d="M14 36h10l3 6h10l3-6h10M14 36l6-16h24l6 16v11H14z"/><path d="M26 24h12M26 30h12"/></g></svg>';
