import type { Logger } from '../../ports/logger.js';

/**
 * Keeps only what the server logs as an error, so a long run holds no request log in memory: an
 * "unhandled error" is a 500 even when the client never saw it (it had hung up).
 */
export class ErrorCountingLogger implements Logger {
  readonly errors: { readonly message: string; readonly fields: Record<string, unknown> }[] = [];
  debug() {}
  info() {}
  warn() {}
  error(fields: Record<string, unknown>, message: string) {
    this.errors.push({ message, fields });
  }
}
