/** A rounded square in Shopify's green with a white shopping bag. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#5e8e3e"/><path d="M18 24h28l-3 26H21z" fill="#fff"/><path d="M26 24v-4a6 6 0 0 1 12 0v4" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round"/></svg>';
