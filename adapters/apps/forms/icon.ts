/** A sheet with two filled-in lines and a box ticked: a form answered. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0059f7"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><rect x="15" y="11" width="34" height="42" rx="4"/><path d="M23 22h18M23 31h18"/><path d="M23 42l4 4 8-8"/></g></svg>';
