/** Two people, a team. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#5059c9"/><g fill="#fff"><circle cx="26" cy="22" r="7"/><circle cx="42" cy="24" r="5"/><path d="M13 46c0-8 6-13 13-13s13 5 13 13z"/><path d="M41 46c0-4-1-7-3-10 7-1 13 3 13 10z"/></g></svg>';
