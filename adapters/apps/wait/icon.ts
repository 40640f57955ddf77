/** An hourglass: the run waits for something. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#b45309"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><path d="M20 14h24M20 50h24"/><path d="M23 14c0 10 18 12 18 18s-18 8-18 18M41 14c0 10-18 12-18 18s18 8 18 18"/></g></svg>';
