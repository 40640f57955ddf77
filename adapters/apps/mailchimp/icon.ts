/** An envelope on Mailchimp's yellow. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#ffe01b"/><g fill="none" stroke="#241c15" stroke-width="4" stroke-linejoin="round"><rect x="14" y="20" width="36" height="24" rx="3"/><path d="M15 22l17 13 17-13"/></g></svg>';
