import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import type { Form } from '../../domain/form.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { type FormChanges, fieldsRefusal } from './form-input.js';
import { loadOwnForm } from './own-form.js';

/** Changes what is given of one of the caller's forms; the flows that use it see the change at once. */
export const makeUpdateForm =
  ({ repos, uow, clock }: Pick<CoreDeps, 'repos' | 'uow' | 'clock'>) =>
  async (actor: Actor, formId: string, changes: FormChanges): Promise<Result<Form, DomainError>> => {
    const loaded = await loadOwnForm(repos, actor, formId, 'manage');
    if (!loaded.ok) return loaded;
    const refused = fieldsRefusal(changes);
    if (refused) return err(refused);
    return uow.run(async (tx) => {
      await tx.forms.update(formId, changes, clock.now());
      const updated = await tx.forms.findById(formId);
      return updated ? ok(updated) : err(notFound('Form'));
    });
  };
