/** A rounded square in HubSpot's orange with a hub: a ring and three spokes. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#ff7a59"/><g fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round"><circle cx="36" cy="36" r="8"/><path d="M36 28V16M30 42l-12 10M28 32l-12-8"/></g><circle cx="36" cy="14" r="4" fill="#fff"/></svg>';
