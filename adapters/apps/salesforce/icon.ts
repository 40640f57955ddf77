/** A rounded square in Salesforce's blue with a simple white cloud of three circles. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#00a1e0"/><g fill="#fff"><circle cx="24" cy="34" r="9"/><circle cx="36" cy="28" r="11"/><circle cx="45" cy="37" r="7"/><rect x="20" y="34" width="28" height="10" rx="5"/></g></svg>';
