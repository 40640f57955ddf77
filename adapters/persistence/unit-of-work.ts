import { type DomainError, uniqueViolation } from '../../core/domain/errors.js';
import { err, type Result } from '../../core/domain/result.js';
import type { SecretBox } from '../../ports/secret-box.js';
import type { UnitOfWork } from '../../ports/unit-of-work.js';
import type { DatabaseHandle } from './open-database.js';
import { createRepositories } from './repositories/index.js';
import { uniqueViolationField } from './unique-violation.js';

/** Carries a use case's refusal out of Kysely's transaction callback so that it rolls back. */
class Refusal {
  constructor(readonly result: Result<never, DomainError>) {}
}

export const createUnitOfWork = ({ db, codec }: DatabaseHandle, secretBox: SecretBox): UnitOfWork => ({
  async run(work) {
    try {
      return await db.transaction().execute(async (trx) => {
        const result = await work(createRepositories({ db: trx, codec, secretBox }));
        if (!result.ok) throw new Refusal(result);
        return result;
      });
    } catch (error) {
      if (error instanceof Refusal) return error.result;
      const field = uniqueViolationField(error);
      if (field) return err(uniqueViolation(field));
      throw error;
    }
  },
});
