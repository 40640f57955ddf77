/** A stack of disks: stored values. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#7c3aed"/><g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><ellipse cx="32" cy="19" rx="14" ry="5"/><path d="M18 19v26c0 2.8 6.3 5 14 5s14-2.2 14-5V19M18 32c0 2.8 6.3 5 14 5s14-2.2 14-5"/></g></svg>';
