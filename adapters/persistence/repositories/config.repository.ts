import { type Appearance, DEFAULT_APPEARANCE } from '../../../core/domain/instance.js';
import type { ConfigRepository } from '../../../ports/repositories.js';
import type { Executor } from './executor.js';

const APPEARANCE_KEYS = Object.keys(DEFAULT_APPEARANCE) as (keyof Appearance)[];

export const createConfigRepository = ({ db, codec }: Executor): ConfigRepository => {
  const get = async () => {
    const row = await db.selectFrom('config').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    return {
      ...DEFAULT_APPEARANCE,
      ...codec.readJson<Partial<Appearance>>(row.appearance),
      installationCompleted: codec.readBool(row.installation_completed),
      registrationEnabled: codec.readBool(row.registration_enabled),
      enableTemplates: codec.readBool(row.enable_templates),
    };
  };

  return {
    get,

    async claimInstallation(now) {
      const result = await db
        .updateTable('config')
        .set({ installation_completed: codec.bool(true), updated_at: codec.timestamp(now) })
        .where('id', '=', 1)
        .where('installation_completed', '=', codec.bool(false))
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async update(changes, now) {
      const current = await get();
      const appearance = Object.fromEntries(APPEARANCE_KEYS.map((key) => [key, changes[key] ?? current[key]]));
      // `null` clears an appearance field; `undefined` keeps it.
      for (const key of APPEARANCE_KEYS) if (changes[key] === null) appearance[key] = null;
      await db
        .updateTable('config')
        .set({
          ...(changes.registrationEnabled !== undefined && {
            registration_enabled: codec.bool(changes.registrationEnabled),
          }),
          ...(changes.enableTemplates !== undefined && { enable_templates: codec.bool(changes.enableTemplates) }),
          appearance: codec.json(appearance),
          updated_at: codec.timestamp(now),
        })
        .where('id', '=', 1)
        .execute();
    },
  };
};
