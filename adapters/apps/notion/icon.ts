/** A page with a folded corner and two lines of text. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#191919"/><path d="M18 14h20l8 8v28H18z" fill="#fff"/><path d="M38 14v8h8" fill="#d4d4d4"/><path d="M24 32h16M24 40h12" stroke="#191919" stroke-width="3" stroke-linecap="round"/></svg>';
