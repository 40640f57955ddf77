/** A rounded square in WooCommerce's purple with a white speech bubble. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#7f54b3"/><path d="M14 20h36a4 4 0 0 1 4 4v14a4 4 0 0 1-4 4H36l-8 8v-8H14a4 4 0 0 1-4-4V24a4 4 0 0 1 4-4z" fill="#fff"/></svg>';
