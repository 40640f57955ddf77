import type { Role } from '../../../core/domain/role.js';
import type { UserWithRole } from '../../../core/domain/user.js';

const presentPermissions = (role: Role) =>
  role.permissions.map((p) => ({ action: p.action, subject: p.subject, conditions: p.conditions }));

export const presentRole = (role: Role) => ({
  id: role.id,
  name: role.name,
  description: role.description,
  isAdmin: role.isAdmin,
  createdAt: role.createdAt.toISOString(),
  updatedAt: role.updatedAt.toISOString(),
});

/** A role with the permissions it grants. */
export const presentRoleWithPermissions = (role: Role) => ({
  ...presentRole(role),
  permissions: presentPermissions(role),
});

/** A user as the API shows it. There is deliberately no field for the password hash. */
export const presentUser = (user: UserWithRole) => ({
  id: user.id,
  email: user.email,
  fullName: user.fullName,
  status: user.status,
  roleId: user.roleId,
  role: presentRole(user.role),
  permissions: presentPermissions(user.role),
  createdAt: user.createdAt.toISOString(),
  updatedAt: user.updatedAt.toISOString(),
});
