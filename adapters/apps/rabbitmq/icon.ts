/** RabbitMQ's shape: two ears over a body, with a window. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#ff6600"/><path fill="#fff" d="M14 17a2 2 0 0 1 2-2h5a2 2 0 0 1 2 2v12h4V17a2 2 0 0 1 2-2h5a2 2 0 0 1 2 2v12h12a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H16a2 2 0 0 1-2-2z"/><rect x="38" y="35" width="7" height="7" rx="1.5" fill="#ff6600"/></svg>';
