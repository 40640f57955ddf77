/** A branch of commits: a repository. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#000000"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><circle cx="22" cy="18" r="4"/><circle cx="22" cy="46" r="4"/><circle cx="42" cy="24" r="4"/><path d="M22 22v20M42 28c0 8-20 6-20 14"/></g></svg>';
