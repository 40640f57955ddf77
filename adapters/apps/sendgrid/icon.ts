/** A paper plane, a message on its way, on SendGrid's blue. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#1a82e2"/><path d="M14 31l36-15-11 34-8-12z" fill="#fff"/><path d="M31 38l19-22" stroke="#1a82e2" stroke-width="3"/></svg>';
