/** Drawn for Conveyor: a llama's head in outline, black on white. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#fff"/><path fill="none" stroke="#000" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round" d="M22 26V12q2-4 4 0l1 9h10l1-9q2-4 4 0v14q6 5 6 13v13H16V39q0-8 6-13z"/><circle cx="26" cy="36" r="2.2"/><circle cx="38" cy="36" r="2.2"/><path fill="none" stroke="#000" stroke-width="3" stroke-linecap="round" d="M28 44q4 3 8 0"/></svg>';
