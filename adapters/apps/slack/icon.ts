/** A hash sign of four rounded bars: a channel. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#4a154b"/><g fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round"><path d="M26 14l-4 36M42 14l-4 36M15 26h36M13 38h36"/></g></svg>';
