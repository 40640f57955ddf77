/** An envelope. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0078d4"/><g fill="none" stroke="#fff" stroke-width="3.5" stroke-linejoin="round"><rect x="13" y="19" width="38" height="26" rx="3"/><path d="M14 21l18 14 18-14"/></g></svg>';
