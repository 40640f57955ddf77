/**
 * Thrown by an app when the remote service failed in a way that may pass (a full mailbox server
 * answering 4xx, a database deadlock or restart): the engine retries the step with backoff instead
 * of failing the run. Anything else an app throws fails the step at once, except network errors
 * and the HTTP client's retryable answers, which the engine already knows.
 */
export class TemporaryError extends Error {
  override readonly name = 'TemporaryError';
  readonly retryAfterSeconds: number | null;

  constructor(message: string, options: { readonly cause?: unknown; readonly retryAfterSeconds?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
  }
}
