import { createSign, type KeyObject } from 'node:crypto';

const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT signed with RS256 (RSASSA-PKCS1-v1_5 with SHA-256), as RFC 7523's assertions are. */
export const signRs256Jwt = (
  claims: Readonly<Record<string, unknown>>,
  privateKey: KeyObject | string,
  keyId?: string,
): string => {
  const header = { alg: 'RS256', typ: 'JWT', ...(keyId && { kid: keyId }) };
  const signingInput = `${segment(header)}.${segment(claims)}`;
  const signature = createSign('RSA-SHA256').update(signingInput).sign(privateKey).toString('base64url');
  return `${signingInput}.${signature}`;
};
