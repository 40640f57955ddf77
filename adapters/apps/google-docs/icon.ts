/** A page with lines of text, on Docs' blue. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#4285f4"/><path d="M18 12h20l8 8v32H18z" fill="#fff"/><path d="M24 30h16M24 37h16M24 44h10" stroke="#4285f4" stroke-width="3" stroke-linecap="round"/></svg>';
