/** An envelope, its flap drawn as a V, on Gmail's red. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#ea4335"/><rect x="12" y="18" width="40" height="28" rx="3" fill="#fff"/><path d="M14 21l18 14 18-14" fill="none" stroke="#ea4335" stroke-width="4" stroke-linejoin="round"/></svg>';
