/** A bold g, on Groq's orange. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#f55036"/><circle cx="32" cy="28" r="11" fill="none" stroke="#fff" stroke-width="5"/><path d="M43 26v14a11 11 0 0 1-19 7" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round"/></svg>';
