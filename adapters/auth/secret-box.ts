import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SecretBox } from '../../ports/secret-box.js';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A short, stable name for a key, stored with each value so that keys can rotate. */
export const keyId = (key: Uint8Array): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

/**
 * AES-256-GCM. A sealed value reads `v1.<key id>.<base64url(iv | ciphertext | tag)>`; `context`
 * is the associated data. New values use the first key; any listed key opens old values.
 */
export const createSecretBox = (keys: readonly Uint8Array[]): SecretBox => {
  const [current] = keys;
  if (!current || keys.some((k) => k.length !== 32)) throw new Error('The secret box needs 32-byte keys.');
  const byId = new Map(keys.map((key) => [keyId(key), key]));
  const currentId = keyId(current);

  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${currentId}.${body.toString('base64url')}`;
    },
    open(sealed, context) {
      const [version, id, data] = sealed.split('.');
      if (version !== VERSION || !id || !data) throw new Error('Not a sealed value.');
      const key = byId.get(id);
      if (!key) throw new Error(`Sealed with an unknown key (${id}): is ENCRYPTION_KEY the one it was written with?`);
      const body = Buffer.from(data, 'base64url');
      if (body.length < IV_BYTES + TAG_BYTES) throw new Error('Sealed value is truncated.');
      const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
  };
};
