import type { Permission, PermissionAction, PermissionCondition, PermissionSubject, Role } from '../domain/role.js';

/** Every permission a role can hold. `manage` implies `read`; Execution has no `manage`. */
export const PERMISSION_CATALOG = {
  actions: [
    { key: 'read', label: 'Read', subjects: ['Flow', 'Connection', 'Execution', 'Agent', 'McpServer'] },
    { key: 'manage', label: 'Manage', subjects: ['Flow', 'Connection', 'Agent', 'McpServer'] },
  ],
  subjects: [
    { key: 'Flow', label: 'Flow' },
    { key: 'Connection', label: 'Connection' },
    { key: 'Execution', label: 'Execution' },
    { key: 'Agent', label: 'Agent' },
    { key: 'McpServer', label: 'MCP Server' },
  ],
  conditions: [{ key: 'isCreator', label: 'Is creator' }],
} as const satisfies {
  actions: ReadonlyArray<{ key: PermissionAction; label: string; subjects: readonly PermissionSubject[] }>;
  subjects: ReadonlyArray<{ key: PermissionSubject; label: string }>;
  conditions: ReadonlyArray<{ key: PermissionCondition; label: string }>;
};

/** Whether an (untrusted) permission names an action, subject and conditions the catalog has. */
export const isInCatalog = (permission: { action: string; subject: string; conditions: readonly string[] }) => {
  const action = PERMISSION_CATALOG.actions.find((a) => a.key === permission.action);
  return (
    action !== undefined &&
    (action.subjects as readonly string[]).includes(permission.subject) &&
    permission.conditions.every((c) => PERMISSION_CATALOG.conditions.some((known) => known.key === c)) &&
    new Set(permission.conditions).size === permission.conditions.length
  );
};

/** Every catalog permission without conditions: what the Admin role holds. */
export const ALL_PERMISSIONS: readonly Permission[] = PERMISSION_CATALOG.actions.flatMap((action) =>
  action.subjects.map((subject) => ({ action: action.key, subject, conditions: [] })),
);

/** A permission as a user's listing shows it: a role's, or one of administration. */
export interface ListedPermission {
  readonly action: PermissionAction;
  readonly subject: PermissionSubject | 'User';
  readonly conditions: readonly PermissionCondition[];
}

/**
 * What Automatisch's admin role holds without a licence beyond flows, connections and executions:
 * the users. Here administration belongs to the Admin role itself (`adminOnly`), not to rows a role
 * can be given, so these are not in the catalog; they are listed for clients that read them.
 */
const ADMINISTRATION_PERMISSIONS: readonly ListedPermission[] = [
  { action: 'read', subject: 'User', conditions: [] },
  { action: 'manage', subject: 'User', conditions: [] },
];

/** What a user of the role may do, as a list: its permissions, and for administrators, administration. */
export const listedPermissions = (role: Role): readonly ListedPermission[] =>
  role.isAdmin ? [...role.permissions, ...ADMINISTRATION_PERMISSIONS] : role.permissions;
