/** A play button: a white rounded rectangle with a red triangle, on red. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#ff0000"/><rect x="12" y="18" width="40" height="28" rx="9" fill="#fff"/><path d="M28 25v14l12-7z" fill="#ff0000"/></svg>';
