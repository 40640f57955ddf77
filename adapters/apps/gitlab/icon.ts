/** Three facets of a folded shape on GitLab's orange. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#fc6d26"/><path d="M32 50 14 36l5-20 6 14h14l6-14 5 20z" fill="#fff"/><path d="M32 50 25 30h14z" fill="#fca326"/></svg>';
