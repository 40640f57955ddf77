import { type DomainError, notFound } from '../../domain/errors.js';
import type { Form } from '../../domain/form.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';

/** A form as its public page shows it to anyone: it exists, and its owner's account was not removed. */
export const makeGetPublicForm =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  async (formId: string): Promise<Result<Form, DomainError>> => {
    const form = await repos.forms.findById(formId);
    return form ? ok(form) : err(notFound('Form'));
  };
