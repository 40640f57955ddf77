import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase64urlNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
import type { SecretTokens } from '../../ports/secret-tokens.js';

const encoder = new TextEncoder();

/**
 * Tokens carry 256 random bits, so a plain SHA-256 is the right stored form: nothing to
 * brute-force, and lookups stay a single indexed equality.
 */
export const createSecretTokens = (): SecretTokens => ({
  generate() {
    const bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    return encodeBase64urlNoPadding(bytes);
  },
  hash: (token) => encodeHexLowerCase(sha256(encoder.encode(token))),
});
