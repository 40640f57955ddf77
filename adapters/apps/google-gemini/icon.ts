/** Drawn for Conveyor: a four-pointed spark in Google's blue, on white. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#fff"/><path fill="#1a73e8" d="M32 8c1.6 12.7 11.3 22.4 24 24-12.7 1.6-22.4 11.3-24 24-1.6-12.7-11.3-22.4-24-24 12.7-1.6 22.4-11.3 24-24z"/></svg>';
