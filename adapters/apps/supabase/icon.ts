/** A lightning bolt, data on demand, on Supabase's green. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#3ecf8e"/><path d="M36 10L16 36h15l-3 18 20-26H33z" fill="#1c1c1c"/></svg>';
