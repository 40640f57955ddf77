/** Messages passing through a hub. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#27aae1"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><path d="M16 20h32v18H30l-8 7v-7h-6z"/><path d="M24 29h16"/></g></svg>';
