import type { Selectable } from 'kysely';
import type { AppConfig } from '../../../core/domain/app-config.js';
import type { AppConfigRepository } from '../../../ports/repositories.js';
import type { AppConfigsTable } from '../schema.js';
import type { Executor } from './executor.js';

export const createAppConfigRepository = ({ db, codec }: Executor): AppConfigRepository => {
  const toConfig = (row: Selectable<AppConfigsTable>): AppConfig => ({
    appKey: row.app_key,
    disabled: codec.readBool(row.disabled),
    useOnlyPredefinedAuthClients: codec.readBool(row.use_only_predefined_auth_clients),
    createdAt: codec.readTimestamp(row.created_at),
    updatedAt: codec.readTimestamp(row.updated_at),
  });

  return {
    async find(appKey) {
      const row = await db.selectFrom('app_configs').selectAll().where('app_key', '=', appKey).executeTakeFirst();
      return row ? toConfig(row) : null;
    },

    async insert(config, now) {
      const row = {
        app_key: config.appKey,
        disabled: codec.bool(config.disabled),
        use_only_predefined_auth_clients: codec.bool(config.useOnlyPredefinedAuthClients),
        created_at: codec.timestamp(now),
        updated_at: codec.timestamp(now),
      };
      await db.insertInto('app_configs').values(row).execute();
      return toConfig(row);
    },

    async update(appKey, changes, now) {
      await db
        .updateTable('app_configs')
        .set({
          ...(changes.disabled !== undefined && { disabled: codec.bool(changes.disabled) }),
          ...(changes.useOnlyPredefinedAuthClients !== undefined && {
            use_only_predefined_auth_clients: codec.bool(changes.useOnlyPredefinedAuthClients),
          }),
          updated_at: codec.timestamp(now),
        })
        .where('app_key', '=', appKey)
        .execute();
    },
  };
};
