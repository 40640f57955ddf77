/** A circle crossed by diagonal strokes on Linear's indigo. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#5e6ad2"/><circle cx="32" cy="32" r="17" fill="#fff"/><path d="M19 37l8 8M17 29l18 18M21 22l21 21" stroke="#5e6ad2" stroke-width="3" stroke-linecap="round"/></svg>';
