/**
 * The database refused a text it cannot hold: Postgres takes no NUL character (U+0000), in text
 * columns or in JSON. The text is the client's, so the HTTP edge answers 422 rather than 500.
 */
export class UnstorableTextError extends Error {
  override readonly name = 'UnstorableTextError';
}
