/** A board with two lists of cards, one taller than the other. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0079bf"/><rect x="14" y="14" width="15" height="34" rx="3" fill="#fff"/><rect x="35" y="14" width="15" height="22" rx="3" fill="#fff"/></svg>';
