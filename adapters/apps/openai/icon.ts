/** A six-petalled knot, white on black. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#000000"/><g fill="none" stroke="#fff" stroke-width="4"><ellipse cx="32" cy="32" rx="8" ry="18"/><ellipse cx="32" cy="32" rx="8" ry="18" transform="rotate(60 32 32)"/><ellipse cx="32" cy="32" rx="8" ry="18" transform="rotate(120 32 32)"/></g></svg>';
