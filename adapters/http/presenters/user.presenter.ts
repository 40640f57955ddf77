import type { Role } from '../../../core/domain/role.js';
import type { UserWithRole } from '../../../core/domain/user.js';
import { type ListedPermission, listedPermissions } from '../../../core/policy/catalog.js';
import type { Answer } from '../schemas/resources.schemas.js';
import { epochMs } from './timestamp.js';

const presentPermissions = (permissions: readonly ListedPermission[]) =>
  permissions.map((p) => ({ action: p.action, subject: p.subject, conditions: p.conditions }));

export const presentRole = (role: Role): Answer<'Role'> => ({
  id: role.id,
  name: role.name,
  description: role.description,
  isAdmin: role.isAdmin,
  createdAt: epochMs(role.createdAt),
  updatedAt: epochMs(role.updatedAt),
});

/** A role with the permissions it grants. */
export const presentRoleWithPermissions = (role: Role): Answer<'RoleWithPermissions'> => ({
  ...presentRole(role),
  permissions: presentPermissions(role.permissions),
});

/**
 * A user as the API shows it, with what they may do (administrators: users too, as Automatisch
 * lists them). There is deliberately no field for the password hash.
 */
export const presentUser = (user: UserWithRole): Answer<'User'> => ({
  id: user.id,
  email: user.email,
  fullName: user.fullName,
  status: user.status,
  roleId: user.roleId,
  role: presentRole(user.role),
  permissions: presentPermissions(listedPermissions(user.role)),
  createdAt: epochMs(user.createdAt),
  updatedAt: epochMs(user.updatedAt),
});
