import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretTokens } from './secret-tokens.js';

const tokens = createSecretTokens();

describe('createSecretTokens', () => {
  describe('generate', () => {
    it('returns 43 base64url characters (256 bits, no padding)', () => {
      const token = tokens.generate();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    });

    it('returns distinct tokens across 1000 calls', () => {
      const generated = Array.from({ length: 1000 }, () => tokens.generate());
      expect(generated.every((token) => /^[A-Za-z0-9_-]{43}$/.test(token))).toBe(true);
      expect(new Set(generated).size).toBe(1000);
    });
  });

  describe('hash', () => {
    it('returns 64 lowercase hex characters', () => {
      expect(tokens.hash(tokens.generate())).toMatch(/^[0-9a-f]{64}$/);
      expect(tokens.hash('')).toMatch(/^[0-9a-f]{64}$/);
    });

    it('is deterministic, also across instances', () => {
      const token = tokens.generate();
      expect(tokens.hash(token)).toBe(tokens.hash(token));
      expect(createSecretTokens().hash(token)).toBe(tokens.hash(token));
    });

    it('differs for different tokens', () => {
      const a = tokens.generate();
      const b = tokens.generate();
      expect(tokens.hash(a)).not.toBe(tokens.hash(b));
      expect(tokens.hash('token')).not.toBe(tokens.hash('Token'));
    });

    it('is the SHA-256 of the UTF-8 token', () => {
      for (const input of ['abc', 'conveyor-access-token', 'héllo ✓', tokens.generate()]) {
        expect(tokens.hash(input)).toBe(createHash('sha256').update(input, 'utf8').digest('hex'));
      }
    });

    it('matches the published SHA-256 test vector for "abc"', () => {
      expect(tokens.hash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    });
  });
});
