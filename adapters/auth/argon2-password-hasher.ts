import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '../../ports/password-hasher.js';

/** argon2id with OWASP's recommended minimum: 19 MiB, 2 passes, 1 lane. */
const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const createArgon2PasswordHasher = (): PasswordHasher => {
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, OPTIONS),
    async verify(passwordHash, password) {
      try {
        return await verify(passwordHash, password);
      } catch {
        // A malformed stored hash matches nothing.
        return false;
      }
    },
    async verifyDummy(password) {
      dummy ??= hash('conveyor-timing-equaliser', OPTIONS);
      await verify(await dummy, password);
    },
  };
};
