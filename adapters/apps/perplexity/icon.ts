/** An eight-pointed star of lines, on Perplexity's dark teal. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#091717"/><g stroke="#20b8cd" stroke-width="4" stroke-linecap="round"><path d="M32 12v40M12 32h40M18 18l28 28M46 18L18 46"/></g></svg>';
