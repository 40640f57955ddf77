/** Why a text cannot be stored: a NUL character, or a lone UTF-16 surrogate. */
export type UnstorableText = 'nul' | 'lone-surrogate';

/**
 * The database refused a text it cannot hold: Postgres takes no NUL character (U+0000), in text
 * columns or in JSON, and no UTF-16 surrogate without its pair (U+D800 to U+DFFF; JSON can spell
 * one, `"\udc00"`, but no UTF-8 text holds it). The text is the client's, so the HTTP edge answers
 * 422 rather than 500.
 */
export class UnstorableTextError extends Error {
  override readonly name = 'UnstorableTextError';
  constructor(
    readonly reason: UnstorableText,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
