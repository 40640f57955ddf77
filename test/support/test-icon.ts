/** The icon of the tests' own apps: a grey square. */
export const TEST_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#9ca3af"/></svg>';
