import { type DomainError, invalidInput } from '../../domain/errors.js';
import { type FormDefinition, formFieldsProblems } from '../../domain/form.js';

/** What a client sends to create a form: the name, and the rest when it has something to say. */
export type NewFormInput = Pick<FormDefinition, 'name'> & Partial<FormDefinition>;
/** What a change sends: any of it; null clears a text. */
export type FormChanges = Partial<FormDefinition>;

/** Refuses fields whose shapes are fine one by one but not together (see formFieldsProblems). */
export const fieldsRefusal = (changes: FormChanges): DomainError | null => {
  const problems = changes.fields ? formFieldsProblems(changes.fields) : null;
  return problems ? invalidInput(problems) : null;
};
