/** A speech bubble with three dots: a text message. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#f22f46"/><path d="M14 18h36v22H30l-9 8v-8h-7z" fill="none" stroke="#fff" stroke-width="4" stroke-linejoin="round"/><g fill="#fff"><circle cx="23" cy="29" r="3"/><circle cx="32" cy="29" r="3"/><circle cx="41" cy="29" r="3"/></g></svg>';
