import { hmacHex, refuseWebhook, safeEqual } from '../sdk/index.js';

/** Deliveries signed longer ago than this are refused: a captured one cannot be replayed. */
const TOLERANCE_SECONDS = 300;

/**
 * Checks Stripe's `Stripe-Signature` header (`t=<unix time>,v1=<hex>[,v1=...]`): an HMAC-SHA256,
 * with the endpoint's signing secret, of `<t>.<raw body>`. While a secret is being rolled Stripe
 * sends one `v1` per secret; any may match. Refuses the delivery otherwise.
 */
export const verifyStripeSignature = (
  header: string | undefined,
  rawBody: string,
  secret: string,
  now = Date.now(),
): void => {
  const parts = (header ?? '').split(',').map((part) => part.trim().split('='));
  const timestamp = parts.find(([name]) => name === 't')?.[1];
  const signatures = parts.filter(([name]) => name === 'v1').map(([, value]) => value ?? '');
  if (!timestamp || signatures.length === 0) refuseWebhook('The Stripe-Signature header is missing or malformed.');
  if (Math.abs(now / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) {
    refuseWebhook('The Stripe-Signature timestamp is more than five minutes away.');
  }
  const expected = hmacHex('sha256', secret, `${timestamp}.${rawBody}`);
  if (!signatures.some((signature) => safeEqual(signature, expected))) {
    refuseWebhook('The Stripe-Signature header does not match the body.');
  }
};
