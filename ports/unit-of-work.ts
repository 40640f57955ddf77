import type { DomainError } from '../core/domain/errors.js';
import type { Result } from '../core/domain/result.js';
import type { Repositories } from './repositories.js';

export interface UnitOfWork {
  /**
   * Runs `work` in one transaction. It commits when the work returns ok, and rolls back when it
   * returns an error or throws. A unique-constraint violation inside becomes a
   * `unique.violation` error instead of a throw.
   */
  run<T>(work: (repositories: Repositories) => Promise<Result<T, DomainError>>): Promise<Result<T, DomainError>>;
}
