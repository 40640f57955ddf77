/**
 * The database did not give a connection in time (every connection busy under load, or the server
 * unreachable or starting). It passes, so a caller should try again shortly: the HTTP edge answers
 * 503 with `Retry-After` rather than 500, which webhook senders retry.
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}
