/** A half-disc over a triangle on Zendesk's deep green. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#17494d"/><path d="M14 30a9 9 0 0 0 18 0zM32 20 14 44h18zM32 34h18a9 9 0 0 0-18 0zM50 20H32v24z" fill="#fff"/></svg>';
