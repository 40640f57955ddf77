/** The length of an encryption key, in bytes (AES-256). */
export const KEY_BYTES = 32;

/** What a key's text must be, said to whoever typed it. */
export const KEY_TEXT_RULE = `must be ${KEY_BYTES} bytes, as 64 hex characters or base64 (generate one: openssl rand -base64 32)`;

/** The key bytes of `text` (64 hex characters, or base64 of 32 bytes), or null when it is not such a key. */
export const decodeKeyText = (text: string): Uint8Array | null => {
  const trimmed = text.trim();
  const hex = /^[0-9a-f]{64}$/i.test(trimmed);
  // Node's base64 decoder skips characters it does not know; refuse them instead of guessing.
  const base64 = /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed);
  const bytes = hex ? Buffer.from(trimmed, 'hex') : base64 ? Buffer.from(trimmed, 'base64') : Buffer.alloc(0);
  return bytes.length === KEY_BYTES ? new Uint8Array(bytes) : null;
};
