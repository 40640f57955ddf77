import type { Selectable } from 'kysely';
import type {
  Permission,
  PermissionAction,
  PermissionCondition,
  PermissionSubject,
  Role,
} from '../../../core/domain/role.js';
import type { PermissionsTable, RolesTable } from '../schema.js';
import type { Executor } from './executor.js';

const toPermission = ({ codec }: Executor, row: Selectable<PermissionsTable>): Permission => ({
  action: row.action as PermissionAction,
  subject: row.subject as PermissionSubject,
  conditions: codec.readJson<PermissionCondition[]>(row.conditions),
});

/** Loads roles with their permissions: one query for the roles, one for all their permissions. */
export const loadRoles = async (ex: Executor, rows: Selectable<RolesTable>[]): Promise<Role[]> => {
  if (rows.length === 0) return [];
  const permissions = await ex.db
    .selectFrom('permissions')
    .selectAll()
    .where(
      'role_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('subject')
    .orderBy('action')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    isAdmin: ex.codec.readBool(row.is_admin),
    permissions: permissions.filter((p) => p.role_id === row.id).map((p) => toPermission(ex, p)),
    createdAt: ex.codec.readTimestamp(row.created_at),
    updatedAt: ex.codec.readTimestamp(row.updated_at),
  }));
};

export const loadRole = async (ex: Executor, roleId: string): Promise<Role | null> => {
  const row = await ex.db.selectFrom('roles').selectAll().where('id', '=', roleId).executeTakeFirst();
  return row ? ((await loadRoles(ex, [row]))[0] ?? null) : null;
};
