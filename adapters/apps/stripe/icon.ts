/** A rounded square in Stripe's violet with a bold diagonal stroke pair: a card's swipe. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#635bff"/><g fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round"><path d="M20 40l14-16"/><path d="M30 44l14-16"/></g></svg>';
