import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { Template } from '../../domain/template.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

/** Only the name changes: the flow of a template is the snapshot it was made from. */
export const makeUpdateTemplate =
  ({ uow, clock }: Pick<CoreDeps, 'uow' | 'clock'>) =>
  async (
    actor: Actor,
    templateId: string,
    input: { readonly name: string },
  ): Promise<Result<Template, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    return uow.run(async (tx) => {
      if (!(await tx.templates.findById(templateId))) return err(notFound('Template'));
      await tx.templates.rename(templateId, input.name.trim(), clock.now());
      const updated = await tx.templates.findById(templateId);
      return updated ? ok(updated) : err(notFound('Template'));
    });
  };
