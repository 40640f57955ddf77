/** A triangle of three strokes, on Drive's green. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#1fa463"/><path d="M24 14h16l14 24-8 12H18l-8-12z" fill="none" stroke="#fff" stroke-width="4" stroke-linejoin="round"/><path d="M24 14l14 24h16M10 38l14-24M18 50l8-12h20" fill="none" stroke="#fff" stroke-width="3"/></svg>';
