/** Two stacked bars, a form's question and its answer, on Typeform's near-black. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#262627"/><g fill="#fff"><rect x="16" y="20" width="32" height="7" rx="3.5"/><rect x="16" y="37" width="20" height="7" rx="3.5"/></g></svg>';
