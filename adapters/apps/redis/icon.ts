/** Stacked cubes: a data store. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#dc382d"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linejoin="round"><path d="m32 14 18 8-18 8-18-8z"/><path d="m14 32 18 8 18-8"/><path d="m14 42 18 8 18-8"/></g></svg>';
