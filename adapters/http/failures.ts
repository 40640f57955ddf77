import { type DomainError, invalidInput } from '../../core/domain/errors.js';
import { UnstorableTextError } from '../../ports/unstorable-text.js';

/** Failures that only the HTTP edge can have: they never come out of the core. */
export type EdgeError =
  | { readonly code: 'http.bad_request'; readonly message: string }
  | { readonly code: 'http.payload_too_large'; readonly limitBytes: number }
  | { readonly code: 'http.method_not_allowed'; readonly allow: string }
  | { readonly code: 'http.route_not_found' }
  | { readonly code: 'http.service_unavailable'; readonly retryAfterSeconds: number };

export type Failure = DomainError | EdgeError;

/** Thrown by route helpers and caught by the one error handler, which renders it from the table. */
export class FailureResponse extends Error {
  constructor(readonly failure: Failure) {
    super(failure.code);
  }
}

export const fail = (failure: Failure): never => {
  throw new FailureResponse(failure);
};

/** A port's error that the client's input caused, as the failure to answer with; else undefined. */
export const inputFailureOf = (error: unknown): Failure | undefined => {
  if (!(error instanceof UnstorableTextError)) return undefined;
  return invalidInput({
    general: [
      error.reason === 'nul'
        ? 'Text may not contain the NUL character (U+0000).'
        : 'Text may not contain a lone surrogate (U+D800 to U+DFFF).',
    ],
  });
};
