/** A paper plane: a message on its way. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#2aabee"/><path d="M13 31l37-14-7 31-11-9-6 7v-10l15-12-19 10z" fill="none" stroke="#fff" stroke-width="4" stroke-linejoin="round"/></svg>';
