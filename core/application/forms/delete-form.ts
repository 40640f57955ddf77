import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { loadOwnForm } from './own-form.js';

/** Deletes one of the caller's forms: its page is gone, and flows that name it get no more answers. */
export const makeDeleteForm =
  ({ repos, uow }: Pick<CoreDeps, 'repos' | 'uow'>) =>
  async (actor: Actor, formId: string): Promise<Result<void, DomainError>> => {
    const loaded = await loadOwnForm(repos, actor, formId, 'manage');
    if (!loaded.ok) return loaded;
    return uow.run(async (tx) => {
      await tx.forms.delete(formId);
      return ok(undefined);
    });
  };
