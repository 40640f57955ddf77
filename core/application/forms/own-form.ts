import type { Repositories } from '../../../ports/repositories.js';
import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import type { Form } from '../../domain/form.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { PermissionAction } from '../../domain/role.js';
import { authorize } from '../../policy/authorize.js';

/**
 * One of the caller's forms. Forms are personal, as in Automatisch (its routes read the current
 * user's own): anyone else's is not found, whatever the role. Reading needs `read Flow`, changing
 * `manage Flow`, the permissions Automatisch asks for them.
 */
export const loadOwnForm = async (
  repos: Repositories,
  actor: Actor,
  formId: string,
  action: PermissionAction,
): Promise<Result<Form, DomainError>> => {
  const refused = authorize(actor, action, 'Flow');
  if (refused) return err(refused);
  const form = await repos.forms.findById(formId);
  return form?.userId === actor.user.id ? ok(form) : err(notFound('Form'));
};
