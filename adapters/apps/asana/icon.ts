/** Three dots in a triangle, of the app's own drawing. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#690031"/><g fill="#fff"><circle cx="32" cy="21" r="8"/><circle cx="20" cy="40" r="8"/><circle cx="44" cy="40" r="8"/></g></svg>';
