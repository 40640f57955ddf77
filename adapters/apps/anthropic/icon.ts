/** Drawn for Conveyor: an "A" of two strokes and a bar beside a slanted stroke, in Anthropic's dark ink on its warm paper. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#f0eee6"/><path fill="#181818" d="M24.6 16h6.2l11 32h-6.3l-2.4-7.2H21.9L19.5 48h-6.2zm-1 19.6h8.2l-4.1-12.3zM36.9 16h6.1l11 32h-6.1z"/></svg>';
