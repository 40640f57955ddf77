import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** What a signature is computed over: the raw body as received, or a vendor's own base string. */
export type SignedPayload = string | Buffer;

/**
 * An HMAC as lowercase hex (GitHub's `sha256=<hex>`, Shopify's other apps, Slack's `v0=<hex>`).
 * `algorithm` is Node's name for the hash: `sha256`, `sha1`, `sha512`.
 */
export const hmacHex = (algorithm: string, secret: string | Buffer, payload: SignedPayload): string =>
  createHmac(algorithm, secret).update(payload).digest('hex');

/** An HMAC as standard base64 (Shopify's `X-Shopify-Hmac-Sha256`, Square's, Zoom's). */
export const hmacBase64 = (algorithm: string, secret: string | Buffer, payload: SignedPayload): string =>
  createHmac(algorithm, secret).update(payload).digest('base64');

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Whether two texts are equal, in a time that says nothing of where they differ: compare a
 * signature a request carries with the one computed so. Both are hashed first, so that texts of
 * different lengths take the same time too (`timingSafeEqual` refuses unequal lengths).
 */
export const safeEqual = (a: string, b: string): boolean => timingSafeEqual(digest(a), digest(b)) && a === b;
