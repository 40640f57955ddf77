import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import type { Form } from '../../domain/form.js';
import { err, ok, type Result } from '../../domain/result.js';
import { authorize } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';
import { loadOwnForm } from './own-form.js';

export const makeFormQueries = ({ repos }: Pick<CoreDeps, 'repos'>) => ({
  /** The caller's forms, newest first; administrators too see only their own. */
  async listForms(actor: Actor): Promise<Result<Form[], DomainError>> {
    const refused = authorize(actor, 'read', 'Flow');
    return refused ? err(refused) : ok(await repos.forms.listByUser(actor.user.id));
  },
  getForm: (actor: Actor, formId: string): Promise<Result<Form, DomainError>> =>
    loadOwnForm(repos, actor, formId, 'read'),
});
