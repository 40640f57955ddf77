/** One line forking into two: the flow takes one path or several. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0d9488"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><path d="M14 32h12"/><path d="M26 32c6 0 8-12 16-12h8"/><path d="M26 32c6 0 8 12 16 12h8"/><path d="M45 15l5 5-5 5"/><path d="M45 39l5 5-5 5"/></g></svg>';
