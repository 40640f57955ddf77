/** Bearer secrets (access, reset and invitation tokens): generated here, stored only as hashes. */
export interface SecretTokens {
  /** 256 random bits, URL-safe. */
  generate(): string;
  /** A one-way digest used as the stored, indexed form of a token. */
  hash(token: string): string;
}
