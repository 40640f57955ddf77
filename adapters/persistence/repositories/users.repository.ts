import type { Selectable } from 'kysely';
import type { User, UserStatus } from '../../../core/domain/user.js';
import type { UserCredentials, UserRepository } from '../../../ports/repositories.js';
import type { UsersTable } from '../schema.js';
import type { Executor } from './executor.js';
import { loadRole, loadRoles } from './role-rows.js';

const toUser = ({ codec }: Executor, row: Selectable<UsersTable>): User => ({
  id: row.id,
  email: row.email,
  fullName: row.full_name,
  status: row.status as UserStatus,
  roleId: row.role_id,
  createdAt: codec.readTimestamp(row.created_at),
  updatedAt: codec.readTimestamp(row.updated_at),
});

export const createUserRepository = (ex: Executor): UserRepository => {
  const { db, codec } = ex;
  const live = () => db.selectFrom('users').selectAll().where('deleted_at', 'is', null);
  const toCredentials = (row: Selectable<UsersTable> | undefined): UserCredentials | null =>
    row ? { user: toUser(ex, row), passwordHash: row.password_hash } : null;

  return {
    async insert(user) {
      const now = codec.timestamp(user.now);
      const row = {
        id: user.id,
        email: user.email,
        full_name: user.fullName,
        password_hash: user.passwordHash,
        role_id: user.roleId,
        status: user.status,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      };
      await db.insertInto('users').values(row).execute();
      return toUser(ex, row);
    },

    async findById(id) {
      const row = await live().where('id', '=', id).executeTakeFirst();
      if (!row) return null;
      const role = await loadRole(ex, row.role_id);
      if (!role) throw new Error(`User ${id} refers to a missing role.`);
      return { ...toUser(ex, row), role };
    },

    findCredentialsByEmail: async (email) => toCredentials(await live().where('email', '=', email).executeTakeFirst()),
    findCredentialsById: async (id) => toCredentials(await live().where('id', '=', id).executeTakeFirst()),

    async list({ page, perPage }) {
      const { count } = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      const rows = await live()
        .orderBy('created_at')
        .orderBy('id')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      const roles = await loadRoles(
        ex,
        await db
          .selectFrom('roles')
          .selectAll()
          .where('id', 'in', [...new Set(rows.map((r) => r.role_id)), ''])
          .execute(),
      );
      const items = rows.map((row) => {
        const role = roles.find((r) => r.id === row.role_id);
        if (!role) throw new Error(`User ${row.id} refers to a missing role.`);
        return { ...toUser(ex, row), role };
      });
      return { items, total: codec.readInt(count as string | number), page, perPage };
    },

    async activate(id, passwordHash, now) {
      await db
        .updateTable('users')
        .set({ password_hash: passwordHash, status: 'active', updated_at: codec.timestamp(now) })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .execute();
    },

    async updateProfile(id, changes, now) {
      await db
        .updateTable('users')
        .set({
          ...(changes.fullName !== undefined && { full_name: changes.fullName }),
          ...(changes.email !== undefined && { email: changes.email }),
          ...(changes.roleId !== undefined && { role_id: changes.roleId }),
          updated_at: codec.timestamp(now),
        })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .execute();
    },

    async updatePasswordHash(id, passwordHash, now) {
      await db
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: codec.timestamp(now) })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .execute();
    },

    async softDelete(id, now) {
      await db
        .updateTable('users')
        .set({ deleted_at: codec.timestamp(now), updated_at: codec.timestamp(now) })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .execute();
    },

    async countActiveAdmins() {
      const { count } = await db
        .selectFrom('users')
        .innerJoin('roles', 'roles.id', 'users.role_id')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('users.deleted_at', 'is', null)
        .where('users.status', '=', 'active')
        .where('roles.is_admin', '=', codec.bool(true))
        .executeTakeFirstOrThrow();
      return codec.readInt(count as string | number);
    },
  };
};
