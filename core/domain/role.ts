export type PermissionAction = 'read' | 'manage';
export type PermissionSubject = 'Flow' | 'Connection' | 'Execution' | 'Agent' | 'McpServer';
export type PermissionCondition = 'isCreator';

export interface Permission {
  readonly action: PermissionAction;
  readonly subject: PermissionSubject;
  readonly conditions: readonly PermissionCondition[];
}

export interface Role {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  /** True only for the seeded Admin role, whose name, permissions and existence are fixed. */
  readonly isAdmin: boolean;
  readonly permissions: readonly Permission[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const ADMIN_ROLE_NAME = 'Admin';
export const USER_ROLE_NAME = 'User';
