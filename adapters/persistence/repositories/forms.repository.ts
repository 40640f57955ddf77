import type { Selectable } from 'kysely';
import type { Form, FormField } from '../../../core/domain/form.js';
import type { FormRepository } from '../../../ports/form-repository.js';
import type { FormsTable } from '../schema.js';
import type { Executor } from './executor.js';

export const createFormRepository = ({ db, codec }: Executor): FormRepository => {
  const toForm = (row: Selectable<FormsTable>): Form => ({
    id: row.id,
    userId: row.user_id,
    name: row.name,
    displayName: row.display_name,
    description: row.description,
    responseMessage: row.response_message,
    submitButtonText: row.submit_button_text,
    fields: codec.readJson<FormField[]>(row.fields),
    createdAt: codec.readTimestamp(row.created_at),
    updatedAt: codec.readTimestamp(row.updated_at),
  });

  return {
    async listByUser(userId) {
      const rows = await db
        .selectFrom('forms')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(toForm);
    },

    async findById(id) {
      const row = await db
        .selectFrom('forms')
        .selectAll('forms')
        .innerJoin('users', 'users.id', 'forms.user_id')
        .where('forms.id', '=', id)
        .where('users.deleted_at', 'is', null)
        .executeTakeFirst();
      return row ? toForm(row) : null;
    },

    async insert(form) {
      const now = codec.timestamp(form.now);
      const row = {
        id: form.id,
        user_id: form.userId,
        name: form.name,
        display_name: form.displayName,
        description: form.description,
        response_message: form.responseMessage,
        submit_button_text: form.submitButtonText,
        fields: codec.json(form.fields),
        created_at: now,
        updated_at: now,
      };
      await db.insertInto('forms').values(row).execute();
      const { id, userId, name, displayName, description, responseMessage, submitButtonText, fields } = form;
      return {
        ...{ id, userId, name, displayName, description, responseMessage, submitButtonText, fields },
        createdAt: codec.readTimestamp(now),
        updatedAt: codec.readTimestamp(now),
      };
    },

    async update(id, changes, now) {
      await db
        .updateTable('forms')
        .set({
          ...(changes.name !== undefined && { name: changes.name }),
          ...(changes.displayName !== undefined && { display_name: changes.displayName }),
          ...(changes.description !== undefined && { description: changes.description }),
          ...(changes.responseMessage !== undefined && { response_message: changes.responseMessage }),
          ...(changes.submitButtonText !== undefined && { submit_button_text: changes.submitButtonText }),
          ...(changes.fields !== undefined && { fields: codec.json(changes.fields) }),
          updated_at: codec.timestamp(now),
        })
        .where('id', '=', id)
        .execute();
    },

    async delete(id) {
      await db.deleteFrom('forms').where('id', '=', id).execute();
    },
  };
};
