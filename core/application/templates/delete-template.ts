import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

/** Flows made from the template are not affected: they are copies. */
export const makeDeleteTemplate =
  ({ uow }: Pick<CoreDeps, 'uow'>) =>
  async (actor: Actor, templateId: string): Promise<Result<void, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    return uow.run(async (tx) => ((await tx.templates.delete(templateId)) ? ok(undefined) : err(notFound('Template'))));
  };
