import type { RoleFields, RoleRepository } from '../../../ports/repositories.js';
import type { Executor } from './executor.js';
import { loadRole, loadRoles } from './role-rows.js';

export const createRoleRepository = (ex: Executor): RoleRepository => {
  const { db, codec } = ex;

  const insertPermissions = async (roleId: string, permissions: RoleFields['permissions'], now: Date) => {
    if (permissions.length === 0) return;
    await db
      .insertInto('permissions')
      .values(
        permissions.map((p) => ({
          id: crypto.randomUUID(),
          role_id: roleId,
          action: p.action,
          subject: p.subject,
          conditions: codec.json(p.conditions),
          created_at: codec.timestamp(now),
          updated_at: codec.timestamp(now),
        })),
      )
      .execute();
  };

  return {
    async list() {
      return loadRoles(ex, await db.selectFrom('roles').selectAll().orderBy('name').execute());
    },

    findById: (id) => loadRole(ex, id),

    async findByName(name) {
      const row = await db.selectFrom('roles').selectAll().where('name', '=', name).executeTakeFirst();
      return row ? ((await loadRoles(ex, [row]))[0] ?? null) : null;
    },

    async insert(role) {
      await db
        .insertInto('roles')
        .values({
          id: role.id,
          name: role.name,
          description: role.description,
          is_admin: codec.bool(false),
          created_at: codec.timestamp(role.now),
          updated_at: codec.timestamp(role.now),
        })
        .execute();
      await insertPermissions(role.id, role.permissions, role.now);
      const created = await loadRole(ex, role.id);
      if (!created) throw new Error('The inserted role is not there.');
      return created;
    },

    async update(id, fields, now) {
      await db
        .updateTable('roles')
        .set({ name: fields.name, description: fields.description, updated_at: codec.timestamp(now) })
        .where('id', '=', id)
        .execute();
      await db.deleteFrom('permissions').where('role_id', '=', id).execute();
      await insertPermissions(id, fields.permissions, now);
    },

    async delete(id) {
      await db.deleteFrom('roles').where('id', '=', id).execute();
    },

    async countUsers(roleId) {
      const { count } = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('role_id', '=', roleId)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      return codec.readInt(count as string | number);
    },
  };
};
