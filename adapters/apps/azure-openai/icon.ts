/** A cloud over a knot, on Azure's blue. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0078d4"/><path d="M18 42a9 9 0 0 1 2-17.8A12 12 0 0 1 43 22a10 10 0 0 1 3 20z" fill="#fff"/><circle cx="32" cy="34" r="5" fill="none" stroke="#0078d4" stroke-width="3"/></svg>';
