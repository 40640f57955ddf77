import type { Selectable } from 'kysely';
import type { ExportDocument } from '../../../core/domain/export-document.js';
import type { Template } from '../../../core/domain/template.js';
import type { TemplateRepository } from '../../../ports/flow-repositories.js';
import type { TemplatesTable } from '../schema.js';
import type { Executor } from './executor.js';

export const createTemplateRepository = ({ db, codec }: Executor): TemplateRepository => {
  const toTemplate = (row: Selectable<TemplatesTable>): Template => ({
    id: row.id,
    name: row.name,
    flowData: codec.readJson<ExportDocument>(row.flow_data),
    createdAt: codec.readTimestamp(row.created_at),
    updatedAt: codec.readTimestamp(row.updated_at),
  });

  return {
    async list() {
      const rows = await db.selectFrom('templates').selectAll().orderBy('name').orderBy('id').execute();
      return rows.map(toTemplate);
    },

    async findById(id) {
      const row = await db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toTemplate(row) : null;
    },

    async insert(template) {
      const now = codec.timestamp(template.now);
      await db
        .insertInto('templates')
        .values({
          id: template.id,
          name: template.name,
          flow_data: codec.json(template.flowData),
          created_at: now,
          updated_at: now,
        })
        .execute();
      const { id, name, flowData } = template;
      return { id, name, flowData, createdAt: template.now, updatedAt: template.now };
    },

    async rename(id, name, now) {
      await db
        .updateTable('templates')
        .set({ name, updated_at: codec.timestamp(now) })
        .where('id', '=', id)
        .execute();
    },

    async delete(id) {
      const result = await db.deleteFrom('templates').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
};
