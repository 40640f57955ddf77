/**
 * Authenticated encryption for secrets at rest. `context` (e.g. the row id) is bound to the
 * ciphertext, so a sealed value copied to another row does not open.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  /** Throws when the value was tampered with, moved, or sealed with an unknown key. */
  open(sealed: string, context: string): string;
}
