import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKeys, type SigningKeys } from '../../test/support/saml-idp.js';
import { readCertificate } from './certificate.js';

describe('readCertificate', () => {
  let keys: SigningKeys;
  beforeAll(async () => {
    keys = await generateSigningKeys();
  });
  const fingerprint = (pem: string | null) => (pem ? new X509Certificate(pem).fingerprint256 : null);

  it('reads PEM, with Windows line ends too, and bare base64 as IdP metadata carries it', () => {
    const expected = new X509Certificate(keys.certificate).fingerprint256;
    const bare = keys.certificate.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    expect(fingerprint(readCertificate(keys.certificate))).toBe(expected);
    expect(fingerprint(readCertificate(keys.certificate.replace(/\n/g, '\r\n')))).toBe(expected);
    expect(fingerprint(readCertificate(bare))).toBe(expected);
    expect(readCertificate(bare)).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
  });

  it('refuses anything else', () => {
    expect(readCertificate('')).toBeNull();
    expect(readCertificate('hello')).toBeNull();
    expect(readCertificate(Buffer.from('not DER').toString('base64'))).toBeNull();
    expect(readCertificate(keys.privateKey)).toBeNull();
    expect(readCertificate(keys.certificate + keys.certificate)).toBeNull();
  });
});
