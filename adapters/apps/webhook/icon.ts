/** A bolt: a call from outside starts the flow. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0059f7"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><path d="M35 12 20 35h12l-3 17 15-24H32z"/></g></svg>';
