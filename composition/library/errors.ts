import { errorMessages } from '../../core/domain/error-messages.js';
import type { DomainError } from '../../core/domain/errors.js';
import type { Result } from '../../core/domain/result.js';

/**
 * A use case's expected failure, thrown: its `error` is the value the use case answered (the same
 * `code` HTTP answers in its error body), its message the words HTTP and the CLI show.
 */
export class ConveyorError extends Error {
  readonly code: DomainError['code'];
  constructor(readonly error: DomainError) {
    super(
      Object.entries(errorMessages(error))
        .flatMap(([field, messages]) =>
          messages.map((message) => (field === 'general' ? message : `${field} ${message}`)),
        )
        .join(' '),
    );
    this.name = 'ConveyorError';
    this.code = error.code;
  }
}

/** The value of a use case's result, or its failure thrown as a ConveyorError. */
export const unwrap = <T>(result: Result<T, DomainError>): T => {
  if (!result.ok) throw new ConveyorError(result.error);
  return result.value;
};
