/** A sheet of paper with a grid of cells, on Sheets' green. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0f9d58"/><rect x="18" y="12" width="28" height="40" rx="3" fill="#fff"/><g fill="none" stroke="#0f9d58" stroke-width="3"><path d="M23 26h18v18H23zM23 35h18M32 26v18"/></g></svg>';
