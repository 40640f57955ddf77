/** A whale's tail, on DeepSeek's blue. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#4d6bfe"/><path d="M12 34c8 10 26 12 36 2 4-4 6-10 4-16-3 6-8 8-12 8 2-4 1-8-2-10 0 6-6 12-14 12-5 0-9 2-12 4z" fill="#fff"/></svg>';
