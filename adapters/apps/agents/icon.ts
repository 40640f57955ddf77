/** A spark inside a speech bubble: an agent that thinks and acts. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#6366f1"/><path d="M14 18a6 6 0 0 1 6-6h24a6 6 0 0 1 6 6v18a6 6 0 0 1-6 6H28l-9 8v-8a6 6 0 0 1-5-6z" fill="none" stroke="#fff" stroke-width="4" stroke-linejoin="round"/><path d="m32 18 2.5 6.5L41 27l-6.5 2.5L32 36l-2.5-6.5L23 27l6.5-2.5z" fill="#fff"/></svg>';
