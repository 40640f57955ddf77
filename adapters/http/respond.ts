import type { DomainError } from '../../core/domain/errors.js';
import type { Result } from '../../core/domain/result.js';
import { fail } from './failures.js';

/** The value of a successful use case; a failure goes to the shared error handler. */
export const unwrap = <T>(result: Result<T, DomainError>): T => (result.ok ? result.value : fail(result.error));
