import { createHash } from 'node:crypto';

/** RFC 7636's S256 code challenge: the verifier's SHA-256, base64url without padding. */
export const codeChallenge = (codeVerifier: string): string =>
  createHash('sha256').update(codeVerifier, 'ascii').digest('base64url');
