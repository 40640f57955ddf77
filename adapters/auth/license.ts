import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { type License, parseIsoDate } from '../../core/domain/license.js';
import type { LicenseSource } from '../../ports/license.js';
import type { Logger } from '../../ports/logger.js';
import { DEFAULT_LICENSE_PUBLIC_KEY } from './default-license-public-key.js';

/*
 * Licence text: `<base64url(JSON payload)>.<base64url(Ed25519 signature over those payload bytes)>`,
 * payload `{"id": string, "name": string, "expireAt": ISO-8601 string}`. The signature covers the
 * decoded bytes, so the verifier never re-serialises JSON and cannot disagree with the signer on it.
 */

export interface LicensePayload {
  readonly id: string;
  readonly name: string;
  readonly expireAt: Date;
}

/** The DER prefix that turns a raw 32-byte Ed25519 key into a SubjectPublicKeyInfo. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const RAW_KEY_BYTES = 32;
const SIGNATURE_BYTES = 64;

// Node's base64 decoders skip characters they do not know; a licence with any is refused, not guessed at.
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const ed25519 = (key: KeyObject, what: string): KeyObject => {
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(`${what} is a ${key.asymmetricKeyType ?? 'unknown'} key; a licence key must be Ed25519.`);
  }
  return key;
};

/**
 * Accepts a PEM (SPKI), or base64 of the raw 32-byte key or of the SPKI DER. Throws when the key
 * cannot be read: that is a configuration mistake the operator must see at start.
 */
const parsePublicKey = (text: string): KeyObject => {
  const trimmed = text.trim();
  const what = 'The licence public key (LICENSE_PUBLIC_KEY)';
  if (trimmed.includes('PRIVATE KEY')) {
    // createPublicKey would quietly derive the public half; a private key has no business on the server.
    throw new Error(`${what} holds a private key. Give the public key; keep the private key off the server.`);
  }
  try {
    if (trimmed.startsWith('-----BEGIN')) return ed25519(createPublicKey(trimmed), what);
    const bytes = BASE64.test(trimmed) ? Buffer.from(trimmed, 'base64') : Buffer.alloc(0);
    const der = bytes.length === RAW_KEY_BYTES ? Buffer.concat([ED25519_SPKI_PREFIX, bytes]) : bytes;
    return ed25519(createPublicKey({ key: der, format: 'der', type: 'spki' }), what);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith(what)) throw error;
    throw new Error(
      `${what} cannot be read: expected a PEM public key, or base64 of the 32-byte raw key or of its SPKI DER.`,
    );
  }
};

/** Why `text` cannot serve as the licence public key, or null when it can. */
export const publicKeyProblem = (text: string): string | null => {
  try {
    parsePublicKey(text);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

const parsePrivateKey = (pem: string): KeyObject => {
  const what = 'The licence private key';
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new Error(`${what} cannot be read: expected a PEM private key (PKCS#8).`);
  }
  return ed25519(key, what);
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type Reading = { readonly license: License } | { readonly problem: string };

/** Why a licence text was refused, for the start-up log; `verifyLicense` keeps only the verdict. */
const readLicense = (text: string, publicKey: KeyObject): Reading => {
  const parts = text.trim().split('.');
  const [encodedPayload, encodedSignature] = parts;
  if (parts.length !== 2 || !encodedPayload || !encodedSignature) {
    return { problem: 'not of the form <payload>.<signature>' };
  }
  if (!BASE64URL.test(encodedPayload) || !BASE64URL.test(encodedSignature)) return { problem: 'not base64url' };
  const payload = Buffer.from(encodedPayload, 'base64url');
  const signature = Buffer.from(encodedSignature, 'base64url');
  // The signature is checked before the payload is trusted enough to parse.
  if (signature.length !== SIGNATURE_BYTES || !verify(null, payload, publicKey, signature)) {
    return { problem: 'the signature does not match the licence public key' };
  }
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { problem: 'the payload is not JSON' };
  }
  if (!isRecord(json)) return { problem: 'the payload is not an object' };
  const { id, name, expireAt } = json;
  if (typeof id !== 'string' || id.trim() === '') return { problem: 'the payload has no id' };
  if (typeof name !== 'string' || name.trim() === '') return { problem: 'the payload has no name' };
  const expiry = typeof expireAt === 'string' ? parseIsoDate(expireAt) : null;
  if (!expiry) return { problem: 'the payload has no valid expireAt' };
  return { license: { id, name, expireAt: expiry } };
};

/**
 * The licence in `text` when its signature verifies against `publicKey`, or null for anything
 * malformed or forged. Expiry is not checked here (see `licenseStatus`). Throws only when the
 * public key itself cannot be read.
 */
export const verifyLicense = (text: string, publicKey: string): License | null => {
  const key = parsePublicKey(publicKey);
  try {
    const reading = readLicense(text, key);
    return 'license' in reading ? reading.license : null;
  } catch {
    // A licence comes from outside; nothing in it may crash the caller.
    return null;
  }
};

/** Licence text for `payload`, signed with an Ed25519 private key in PEM (PKCS#8). */
export const signLicense = (payload: LicensePayload, privateKeyPem: string): string => {
  if (payload.id.trim() === '') throw new Error('A licence needs an id.');
  if (payload.name.trim() === '') throw new Error('A licence needs a name.');
  if (Number.isNaN(payload.expireAt.getTime())) throw new Error('A licence needs a valid expiry date.');
  const key = parsePrivateKey(privateKeyPem);
  const json = JSON.stringify({ id: payload.id, name: payload.name, expireAt: payload.expireAt.toISOString() });
  const bytes = Buffer.from(json, 'utf8');
  return `${bytes.toString('base64url')}.${sign(null, bytes, key).toString('base64url')}`;
};

export const generateLicenseKeyPair = (): { publicKeyPem: string; privateKeyPem: string } => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
};

export interface LicenseSourceOptions {
  /** The LICENSE_KEY value; null when unset. */
  readonly licenseKey: string | null;
  /** The LICENSE_PUBLIC_KEY value; null or absent means the key built into this release. */
  readonly publicKey?: string | null;
  readonly logger: Logger;
}

/**
 * Verifies the licence once, at start. Throws when the public key cannot be read, so a mistyped
 * LICENSE_PUBLIC_KEY stops the server instead of silently turning enterprise features off.
 */
export const createLicenseSource = ({ licenseKey, publicKey, logger }: LicenseSourceOptions): LicenseSource => {
  const keyOrigin = publicKey ? 'LICENSE_PUBLIC_KEY' : 'built-in';
  const key = parsePublicKey(publicKey || DEFAULT_LICENSE_PUBLIC_KEY);
  let license: License | null = null;
  if (licenseKey) {
    let reading: Reading;
    try {
      reading = readLicense(licenseKey, key);
    } catch {
      reading = { problem: 'unreadable' };
    }
    // The licence text is never logged: it is a credential of its holder.
    if ('problem' in reading) {
      logger.warn(
        { publicKey: keyOrigin, reason: reading.problem },
        'LICENSE_KEY is set but does not verify; enterprise features are off',
      );
    } else {
      license = reading.license;
      const fields = { id: license.id, name: license.name, expireAt: license.expireAt.toISOString() };
      if (license.expireAt.getTime() <= Date.now()) {
        logger.warn(fields, 'Enterprise licence verified but expired; enterprise features are off');
      } else {
        logger.info(fields, 'Enterprise licence verified');
      }
    }
  }
  return { current: () => license };
};
