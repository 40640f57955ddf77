import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CapturingLogger } from '../../test/support/capturing-logger.js';
import { DEFAULT_LICENSE_PUBLIC_KEY } from './default-license-public-key.js';
import { createLicenseSource, generateLicenseKeyPair, signLicense, verifyLicense } from './license.js';

const DAY = 24 * 60 * 60_000;
const keys = generateLicenseKeyPair();
const otherKeys = generateLicenseKeyPair();
const payload = {
  id: '7d1f0c3a-2b4e-4f5a-9c8d-1e2f3a4b5c6d',
  name: 'Acme Corp',
  expireAt: new Date('2031-05-17T12:00:00.000Z'),
};
const license = signLicense(payload, keys.privateKeyPem);

const spkiDer = (pem: string) => createPublicKey(pem).export({ format: 'der', type: 'spki' });
/** The raw 32-byte key is the tail of its 44-byte SPKI encoding. */
const rawKey = (pem: string) => spkiDer(pem).subarray(-32);

/** Signs arbitrary bytes the way a licence is signed, to reach the checks made after the signature. */
const signedText = (json: string, privateKeyPem = keys.privateKeyPem) => {
  const bytes = Buffer.from(json, 'utf8');
  return `${bytes.toString('base64url')}.${sign(null, bytes, createPrivateKey(privateKeyPem)).toString('base64url')}`;
};

describe('generateLicenseKeyPair', () => {
  it('returns an Ed25519 key pair in PEM (SPKI public, PKCS#8 private)', () => {
    expect(keys.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    expect(keys.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n$/);
    expect(createPublicKey(keys.publicKeyPem).asymmetricKeyType).toBe('ed25519');
    expect(createPrivateKey(keys.privateKeyPem).asymmetricKeyType).toBe('ed25519');
  });

  it('returns a fresh pair each time', () => {
    expect(otherKeys.publicKeyPem).not.toBe(keys.publicKeyPem);
    expect(otherKeys.privateKeyPem).not.toBe(keys.privateKeyPem);
  });
});

describe('signLicense', () => {
  it('writes <base64url JSON>.<base64url 64-byte signature>', () => {
    const [encodedPayload, encodedSignature, ...rest] = license.split('.');
    expect(rest).toEqual([]);
    expect(encodedPayload).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(encodedSignature).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(Buffer.from(encodedPayload ?? '', 'base64url').toString('utf8'))).toEqual({
      id: payload.id,
      name: 'Acme Corp',
      expireAt: '2031-05-17T12:00:00.000Z',
    });
    expect(Buffer.from(encodedSignature ?? '', 'base64url')).toHaveLength(64);
  });

  it.each([
    ['an empty id', { ...payload, id: ' ' }, 'id'],
    ['an empty name', { ...payload, name: '' }, 'name'],
    ['an invalid date', { ...payload, expireAt: new Date('nope') }, 'expiry'],
  ])('refuses %s', (_, bad, word) => {
    expect(() => signLicense(bad, keys.privateKeyPem)).toThrow(word);
  });

  it('refuses a private key it cannot read, or one that is not Ed25519', () => {
    expect(() => signLicense(payload, 'not a key')).toThrow(/private key cannot be read/);
    expect(() => signLicense(payload, keys.publicKeyPem)).toThrow(/private key cannot be read/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' });
    expect(() => signLicense(payload, rsa.toString())).toThrow(/rsa key; a licence key must be Ed25519/);
  });
});

describe('verifyLicense', () => {
  it('gives back the signed payload', () => {
    expect(verifyLicense(license, keys.publicKeyPem)).toEqual(payload);
  });

  it('keeps a name outside ASCII intact', () => {
    const text = signLicense({ ...payload, name: 'Société Générale — Zürich ✓' }, keys.privateKeyPem);
    expect(verifyLicense(text, keys.publicKeyPem)?.name).toBe('Société Générale — Zürich ✓');
  });

  it('verifies an expired licence too: expiry is the caller business', () => {
    const old = signLicense({ ...payload, expireAt: new Date('2001-01-01T00:00:00.000Z') }, keys.privateKeyPem);
    expect(verifyLicense(old, keys.publicKeyPem)?.expireAt).toEqual(new Date('2001-01-01T00:00:00.000Z'));
  });

  it('tolerates whitespace around the licence text, as pasted from a file', () => {
    expect(verifyLicense(`  ${license}\n`, keys.publicKeyPem)).toEqual(payload);
  });

  describe('reads the public key as', () => {
    it.each([
      ['PEM (SPKI)', () => keys.publicKeyPem],
      ['PEM with CRLF line ends and surrounding blanks', () => `\n${keys.publicKeyPem.replaceAll('\n', '\r\n')}  `],
      ['base64 of the raw 32-byte key', () => rawKey(keys.publicKeyPem).toString('base64')],
      ['base64url of the raw 32-byte key', () => rawKey(keys.publicKeyPem).toString('base64url')],
      ['base64 of the SPKI DER', () => spkiDer(keys.publicKeyPem).toString('base64')],
    ])('%s', (_, publicKey) => {
      expect(verifyLicense(license, publicKey())).toEqual(payload);
      expect(verifyLicense(signLicense(payload, otherKeys.privateKeyPem), publicKey())).toBeNull();
    });
  });

  describe('returns null for a forged licence', () => {
    it('when the payload was altered after signing', () => {
      const [, signature] = license.split('.');
      const altered = Buffer.from(JSON.stringify({ ...payload, expireAt: '2099-01-01T00:00:00.000Z' })).toString(
        'base64url',
      );
      expect(verifyLicense(`${altered}.${signature}`, keys.publicKeyPem)).toBeNull();
    });

    it('when one character of the payload changed', () => {
      const [encodedPayload = '', signature] = license.split('.');
      const replacement = encodedPayload[10] === 'A' ? 'B' : 'A';
      const flipped = `${encodedPayload.slice(0, 10)}${replacement}${encodedPayload.slice(11)}`;
      expect(verifyLicense(`${flipped}.${signature}`, keys.publicKeyPem)).toBeNull();
    });

    it('when it was signed by another key', () => {
      expect(verifyLicense(signLicense(payload, otherKeys.privateKeyPem), keys.publicKeyPem)).toBeNull();
    });

    it('when the signature of another licence is attached', () => {
      const other = signLicense({ ...payload, name: 'Other' }, keys.privateKeyPem);
      const [encodedPayload] = license.split('.');
      const [, otherSignature] = other.split('.');
      expect(verifyLicense(`${encodedPayload}.${otherSignature}`, keys.publicKeyPem)).toBeNull();
    });

    it('when a licence signed by a test key is checked against the built-in key', () => {
      expect(verifyLicense(license, DEFAULT_LICENSE_PUBLIC_KEY)).toBeNull();
    });
  });

  describe('returns null for a malformed licence', () => {
    it.each([
      ['empty', ''],
      ['blank', '   '],
      ['one part', 'abc'],
      ['a lone dot', '.'],
      ['no signature', `${license.split('.')[0]}.`],
      ['no payload', `.${license.split('.')[1]}`],
      ['three parts', `${license}.abc`],
      ['the payload alone', license.split('.')[0] ?? ''],
      ['garbage', 'this is not a licence at all'],
      ['characters outside base64url', license.replace('.', '.$')],
      ['standard base64 with padding', `${license}==`],
      ['whitespace inside', `${license.slice(0, 20)} ${license.slice(20)}`],
      ['a JWT-looking string', 'eyJhbGciOiJFZERTQSJ9.eyJpZCI6IngifQ.c2ln'],
    ])('%s', (_, text) => {
      expect(verifyLicense(text, keys.publicKeyPem)).toBeNull();
    });

    it('truncated at any length', () => {
      for (let length = 0; length < license.length; length += 1) {
        expect(verifyLicense(license.slice(0, length), keys.publicKeyPem)).toBeNull();
      }
    });

    it('missing its first characters', () => {
      for (let start = 1; start < 12; start += 1) {
        expect(verifyLicense(license.slice(start), keys.publicKeyPem)).toBeNull();
      }
    });
  });

  describe('returns null for a validly signed payload that is not a licence', () => {
    const valid = { id: payload.id, name: 'Acme Corp', expireAt: '2031-05-17T12:00:00.000Z' };
    it.each([
      ['not JSON', '{id: 1'],
      ['JSON null', 'null'],
      ['a JSON array', JSON.stringify([valid])],
      ['a JSON string', JSON.stringify('licence')],
      ['no id', JSON.stringify({ ...valid, id: undefined })],
      ['an empty id', JSON.stringify({ ...valid, id: '' })],
      ['a numeric id', JSON.stringify({ ...valid, id: 42 })],
      ['no name', JSON.stringify({ ...valid, name: undefined })],
      ['a blank name', JSON.stringify({ ...valid, name: '  ' })],
      ['a name that is an object', JSON.stringify({ ...valid, name: { first: 'Acme' } })],
      ['no expireAt', JSON.stringify({ ...valid, expireAt: undefined })],
      ['a numeric expireAt', JSON.stringify({ ...valid, expireAt: Date.parse(valid.expireAt) })],
      ['an unreadable expireAt', JSON.stringify({ ...valid, expireAt: 'next year' })],
      ['an expireAt of a day that does not exist', JSON.stringify({ ...valid, expireAt: '2031-02-30' })],
      ['an expireAt without time zone', JSON.stringify({ ...valid, expireAt: '2031-05-17T12:00:00' })],
      ['an expireAt with a 25th hour', JSON.stringify({ ...valid, expireAt: '2031-05-17T25:00:00Z' })],
    ])('%s', (_, json) => {
      expect(verifyLicense(signedText(json), keys.publicKeyPem)).toBeNull();
    });

    it('but accepts extra fields a later release may add', () => {
      const text = signedText(JSON.stringify({ ...valid, seats: 50 }));
      expect(verifyLicense(text, keys.publicKeyPem)).toEqual(payload);
    });

    it('and accepts a date-only expireAt, as midnight UTC', () => {
      const text = signedText(JSON.stringify({ ...valid, expireAt: '2031-05-17' }));
      expect(verifyLicense(text, keys.publicKeyPem)?.expireAt).toEqual(new Date('2031-05-17T00:00:00.000Z'));
    });
  });

  describe('throws a clear error when the public key itself cannot be read', () => {
    it.each([
      ['garbage', 'not a key'],
      ['empty', ''],
      ['base64 of the wrong length', Buffer.alloc(31).toString('base64')],
      ['a truncated PEM', keys.publicKeyPem.slice(0, 60)],
      ['a PEM with a broken body', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n'],
    ])('%s', (_, publicKey) => {
      expect(() => verifyLicense(license, publicKey)).toThrow(/LICENSE_PUBLIC_KEY\) cannot be read/);
    });

    it('names the key type when it is not Ed25519', () => {
      const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'pem', type: 'spki' });
      expect(() => verifyLicense(license, rsa.toString())).toThrow(/is a rsa key; a licence key must be Ed25519/);
    });

    it('refuses a private key given where the public key belongs', () => {
      expect(() => verifyLicense(license, keys.privateKeyPem)).toThrow(/holds a private key/);
    });

    it('throws even when the licence text is garbage too, so the configuration mistake is seen', () => {
      expect(() => verifyLicense('garbage', 'not a key')).toThrow(/cannot be read/);
    });
  });
});

describe('DEFAULT_LICENSE_PUBLIC_KEY', () => {
  it('is an Ed25519 public key in PEM that verifyLicense reads', () => {
    expect(DEFAULT_LICENSE_PUBLIC_KEY).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(createPublicKey(DEFAULT_LICENSE_PUBLIC_KEY).asymmetricKeyType).toBe('ed25519');
    expect(verifyLicense('garbage', DEFAULT_LICENSE_PUBLIC_KEY)).toBeNull();
  });
});

describe('createLicenseSource', () => {
  const future = signLicense({ ...payload, expireAt: new Date(Date.now() + 365 * DAY) }, keys.privateKeyPem);

  it('has no licence when LICENSE_KEY is unset, and says nothing', () => {
    const logger = new CapturingLogger();
    const source = createLicenseSource({ licenseKey: null, publicKey: keys.publicKeyPem, logger });
    expect(source.current()).toBeNull();
    expect(logger.entries).toEqual([]);
  });

  it('holds the verified licence and logs its id, name and expiry, not its text', () => {
    const logger = new CapturingLogger();
    const source = createLicenseSource({ licenseKey: future, publicKey: keys.publicKeyPem, logger });
    expect(source.current()).toEqual(verifyLicense(future, keys.publicKeyPem));
    expect(logger.entries).toHaveLength(1);
    expect(logger.entries[0]?.level).toBe('info');
    expect(logger.entries[0]?.fields).toMatchObject({ id: payload.id, name: 'Acme Corp' });
    expect(logger.entries[0]?.fields.expireAt).toBe(source.current()?.expireAt.toISOString());
    expect(logger.text()).not.toContain(future.split('.')[1]);
  });

  it('warns, without the licence text, when LICENSE_KEY does not verify', () => {
    const forged = signLicense(payload, otherKeys.privateKeyPem);
    const logger = new CapturingLogger();
    const source = createLicenseSource({ licenseKey: forged, publicKey: keys.publicKeyPem, logger });
    expect(source.current()).toBeNull();
    expect(logger.entries.map((entry) => entry.level)).toEqual(['warn']);
    expect(logger.entries[0]?.message).toContain('LICENSE_KEY');
    expect(logger.entries[0]?.fields).toMatchObject({ publicKey: 'LICENSE_PUBLIC_KEY' });
    for (const part of forged.split('.')) expect(logger.text()).not.toContain(part);
  });

  it('warns when LICENSE_KEY is garbage', () => {
    const logger = new CapturingLogger();
    const source = createLicenseSource({ licenseKey: 'garbage', publicKey: keys.publicKeyPem, logger });
    expect(source.current()).toBeNull();
    expect(logger.entries.map((entry) => entry.level)).toEqual(['warn']);
  });

  it('keeps an expired licence (the caller decides) but warns that it has expired', () => {
    const logger = new CapturingLogger();
    const expired = signLicense({ ...payload, expireAt: new Date(Date.now() - DAY) }, keys.privateKeyPem);
    const source = createLicenseSource({ licenseKey: expired, publicKey: keys.publicKeyPem, logger });
    expect(source.current()?.id).toBe(payload.id);
    expect(logger.entries.map((entry) => entry.level)).toEqual(['warn']);
    expect(logger.entries[0]?.message).toMatch(/expired/);
  });

  it('uses the built-in public key when none is configured', () => {
    const logger = new CapturingLogger();
    const source = createLicenseSource({ licenseKey: future, publicKey: null, logger });
    // The test key did not sign for the maintainers' key.
    expect(source.current()).toBeNull();
    expect(logger.entries[0]?.fields).toMatchObject({ publicKey: 'built-in' });
    expect(createLicenseSource({ licenseKey: null, logger }).current()).toBeNull();
  });

  it('throws at construction when the public key cannot be read, with or without a licence', () => {
    const logger = new CapturingLogger();
    expect(() => createLicenseSource({ licenseKey: future, publicKey: 'nope', logger })).toThrow(/LICENSE_PUBLIC_KEY/);
    expect(() => createLicenseSource({ licenseKey: null, publicKey: 'nope', logger })).toThrow(/LICENSE_PUBLIC_KEY/);
  });

  it('verifies once: current() answers the same object every time', () => {
    const source = createLicenseSource({
      licenseKey: future,
      publicKey: keys.publicKeyPem,
      logger: new CapturingLogger(),
    });
    expect(source.current()).toBe(source.current());
  });
});
