import type { Form, FormDefinition } from '../core/domain/form.js';

export interface FormRepository {
  /** The user's forms, newest first. */
  listByUser(userId: string): Promise<Form[]>;
  /** Null when there is no such form, or its owner's account was removed (its page is gone too). */
  findById(id: string): Promise<Form | null>;
  insert(form: FormDefinition & { readonly id: string; readonly userId: string; readonly now: Date }): Promise<Form>;
  /** Changes what is given, and marks the form updated. */
  update(id: string, changes: Partial<FormDefinition>, now: Date): Promise<void>;
  delete(id: string): Promise<void>;
}
