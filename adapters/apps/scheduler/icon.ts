/** A calendar page: at set times. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0f766e"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><rect x="16" y="19" width="32" height="29" rx="3"/><path d="M16 28h32M24 15v8M40 15v8"/></g></svg>';
