import type { Selectable } from 'kysely';
import type { Folder } from '../../../core/domain/flow.js';
import type { FolderRepository } from '../../../ports/flow-repositories.js';
import type { FlowFoldersTable } from '../schema.js';
import type { Executor } from './executor.js';

export const createFolderRepository = ({ db, codec }: Executor): FolderRepository => {
  const toFolder = (row: Selectable<FlowFoldersTable>): Folder => ({
    id: row.id,
    userId: row.user_id,
    name: row.name,
    createdAt: codec.readTimestamp(row.created_at),
    updatedAt: codec.readTimestamp(row.updated_at),
  });

  return {
    async listByUser(userId) {
      const rows = await db
        .selectFrom('flow_folders')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('name')
        .orderBy('id')
        .execute();
      return rows.map(toFolder);
    },

    async findById(id) {
      const row = await db.selectFrom('flow_folders').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toFolder(row) : null;
    },

    async insert(folder) {
      const now = codec.timestamp(folder.now);
      const row = { id: folder.id, user_id: folder.userId, name: folder.name, created_at: now, updated_at: now };
      await db.insertInto('flow_folders').values(row).execute();
      return toFolder(row);
    },

    async rename(id, name, now) {
      await db
        .updateTable('flow_folders')
        .set({ name, updated_at: codec.timestamp(now) })
        .where('id', '=', id)
        .execute();
    },

    async delete(id) {
      // Said here as well as by the foreign key, so that it holds whatever the database enforces.
      await db.updateTable('flows').set({ folder_id: null }).where('folder_id', '=', id).execute();
      await db.deleteFrom('flow_folders').where('id', '=', id).execute();
    },
  };
};
