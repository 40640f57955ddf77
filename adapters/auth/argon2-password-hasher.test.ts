import { describe, expect, it } from 'vitest';
import { createArgon2PasswordHasher } from './argon2-password-hasher.js';

const hasher = createArgon2PasswordHasher();

describe('createArgon2PasswordHasher', () => {
  it('hashes to an argon2id PHC string with the configured cost', async () => {
    const hash = await hasher.hash('correct horse battery staple');
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
  });

  it('salts each hash, so the same password hashes differently', async () => {
    const [a, b] = await Promise.all([hasher.hash('same password'), hasher.hash('same password')]);
    expect(a).not.toBe(b);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hasher.hash('correct horse battery staple');
    expect(await hasher.verify(hash, 'correct horse battery staple')).toBe(true);
    expect(await hasher.verify(hash, 'correct horse battery stapler')).toBe(false);
    expect(await hasher.verify(hash, '')).toBe(false);
  });

  it.each([
    ['an empty string', ''],
    ['plain text', 'not-a-hash'],
    ['a truncated PHC string', '$argon2id$v=19$m=19456,t=2,p=1$'],
    ['another algorithm', '$2b$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234'],
  ])('returns false, without throwing, for a malformed stored hash (%s)', async (_, stored) => {
    await expect(hasher.verify(stored, 'password')).resolves.toBe(false);
  });

  it('verifyDummy resolves, also when called again', async () => {
    await expect(hasher.verifyDummy('any password')).resolves.toBeUndefined();
    await expect(hasher.verifyDummy('')).resolves.toBeUndefined();
  });
});
