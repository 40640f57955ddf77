/** Three stacked check marks: a list of tasks. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#e44332"/><g fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"><path d="M16 20l5 4 9-8M16 34l5 4 9-8"/><path d="M36 22h12M36 36h12M16 48h32"/></g></svg>';
