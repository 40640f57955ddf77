/** Three routes merging into one, on OpenRouter's grey. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#71717a"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round"><path d="M12 20c14 0 16 12 28 12h12M12 44c14 0 16-12 28-12"/><path d="M44 24l8 8-8 8"/></g></svg>';
