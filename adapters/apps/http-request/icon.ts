/** A globe: a request to any address. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0ea5e9"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><circle cx="32" cy="32" r="17"/><ellipse cx="32" cy="32" rx="7" ry="17"/><path d="M15 32h34"/></g></svg>';
