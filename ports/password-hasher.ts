export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /**
   * Spends the same time as a verify against a real hash, so that "no such account" cannot be
   * told apart from "wrong password" by timing.
   */
  verifyDummy(password: string): Promise<void>;
}
