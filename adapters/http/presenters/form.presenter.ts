import type { Form } from '../../../core/domain/form.js';
import type { Answer } from '../schemas/resources.schemas.js';
import { epochMs } from './timestamp.js';

/** Automatisch's form serializer, key for key. */
export const presentForm = (form: Form): Answer<'Form'> => ({
  id: form.id,
  name: form.name,
  displayName: form.displayName,
  submitButtonText: form.submitButtonText,
  responseMessage: form.responseMessage,
  description: form.description,
  fields: form.fields,
  createdAt: epochMs(form.createdAt),
  updatedAt: epochMs(form.updatedAt),
});
