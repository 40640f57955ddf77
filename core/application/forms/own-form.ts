import type { Repositories } from '../../../ports/repositories.js';
import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import type { Form } from '../../domain/form.js';
import type { Result } from '../../domain/result.js';
import type { PermissionAction } from '../../domain/role.js';
import { personalRow } from '../load-owned.js';

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
): Promise<Result<Form, DomainError>> =>
  personalRow(actor, { action, subject: 'Flow', resource: 'Form' }, () => repos.forms.findById(formId));
