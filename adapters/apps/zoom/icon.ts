/** A video camera. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0b5cff"/><g fill="#fff"><rect x="12" y="21" width="28" height="22" rx="5"/><path d="M42 29l10-7v20l-10-7z"/></g></svg>';
