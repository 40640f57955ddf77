import { describe, expect, it } from 'vitest';
import type { Actor } from '../domain/actor.js';
import type { Permission, PermissionAction, PermissionSubject } from '../domain/role.js';
import { adminOnly, authorize, scopeOf } from './authorize.js';
import { ALL_PERMISSIONS, isInCatalog, listedPermissions } from './catalog.js';

const ME = '11111111-1111-4111-8111-111111111111';
const SOMEONE_ELSE = '22222222-2222-4222-8222-222222222222';
const when = new Date('2026-01-01T00:00:00.000Z');

const actorWith = (permissions: Permission[], isAdmin = false): Actor => ({
  user: {
    id: ME,
    email: 'me@example.com',
    fullName: 'Me',
    status: 'active',
    roleId: 'role',
    createdAt: when,
    updatedAt: when,
    role: { id: 'role', name: 'Role', description: null, isAdmin, permissions, createdAt: when, updatedAt: when },
  },
  credential: { kind: 'access-token', tokenId: 'token' },
});

const own = (action: PermissionAction, subject: PermissionSubject): Permission => ({
  action,
  subject,
  conditions: ['isCreator'],
});
const any = (action: PermissionAction, subject: PermissionSubject): Permission => ({ action, subject, conditions: [] });

/** The seeded roles and a few custom ones, by name. */
const ROLES: Record<string, Actor> = {
  admin: actorWith([...ALL_PERMISSIONS], true),
  user: actorWith([
    own('read', 'Flow'),
    own('manage', 'Flow'),
    own('read', 'Connection'),
    own('manage', 'Connection'),
    own('read', 'Execution'),
  ]),
  nothing: actorWith([]),
  readAllFlows: actorWith([any('read', 'Flow')]),
  manageOwnFlows: actorWith([own('manage', 'Flow')]),
  readAllManageOwn: actorWith([any('read', 'Flow'), own('manage', 'Flow')]),
  manageAllFlows: actorWith([any('manage', 'Flow')]),
};

type Outcome = 'allowed' | 'forbidden' | 'not_found';
const outcome = (actor: Actor, action: PermissionAction, subject: PermissionSubject, ownerId: string): Outcome => {
  const refusal = authorize(actor, action, subject, { ownerId });
  if (!refusal) return 'allowed';
  return refusal.code === 'resource.not_found' ? 'not_found' : 'forbidden';
};

// role, action, subject, owned by the actor?, expected
const TABLE: ReadonlyArray<readonly [string, PermissionAction, PermissionSubject, boolean, Outcome]> = [
  ['admin', 'read', 'Flow', false, 'allowed'],
  ['admin', 'manage', 'Flow', false, 'allowed'],
  ['admin', 'manage', 'Connection', false, 'allowed'],
  ['admin', 'read', 'Execution', false, 'allowed'],
  ['user', 'read', 'Flow', true, 'allowed'],
  ['user', 'manage', 'Flow', true, 'allowed'],
  ['user', 'read', 'Flow', false, 'not_found'],
  ['user', 'manage', 'Flow', false, 'not_found'],
  ['user', 'manage', 'Connection', true, 'allowed'],
  ['user', 'manage', 'Connection', false, 'not_found'],
  ['user', 'read', 'Execution', true, 'allowed'],
  ['user', 'read', 'Execution', false, 'not_found'],
  ['nothing', 'read', 'Flow', true, 'not_found'],
  ['nothing', 'manage', 'Flow', true, 'not_found'],
  ['nothing', 'read', 'Connection', false, 'not_found'],
  ['readAllFlows', 'read', 'Flow', false, 'allowed'],
  ['readAllFlows', 'manage', 'Flow', false, 'forbidden'],
  ['readAllFlows', 'manage', 'Flow', true, 'forbidden'],
  ['readAllFlows', 'read', 'Connection', true, 'not_found'],
  // manage implies read
  ['manageOwnFlows', 'read', 'Flow', true, 'allowed'],
  ['manageOwnFlows', 'read', 'Flow', false, 'not_found'],
  ['manageOwnFlows', 'manage', 'Flow', false, 'not_found'],
  ['readAllManageOwn', 'manage', 'Flow', true, 'allowed'],
  ['readAllManageOwn', 'manage', 'Flow', false, 'forbidden'],
  ['readAllManageOwn', 'read', 'Flow', false, 'allowed'],
  ['manageAllFlows', 'read', 'Flow', false, 'allowed'],
  ['manageAllFlows', 'manage', 'Flow', false, 'allowed'],
  ['manageAllFlows', 'read', 'Execution', true, 'not_found'],
];

describe('authorize, role × action × subject × ownership', () => {
  it.each(TABLE)('%s: %s %s (own: %s) is %s', (role, action, subject, owned, expected) => {
    const actor = ROLES[role];
    if (!actor) throw new Error(`no role ${role}`);
    expect(outcome(actor, action, subject, owned ? ME : SOMEONE_ELSE)).toBe(expected);
  });

  it('decides collection access without a row: any scope allows, none forbids', () => {
    expect(authorize(ROLES.user as Actor, 'read', 'Flow')).toBeNull();
    expect(authorize(ROLES.readAllFlows as Actor, 'manage', 'Flow')?.code).toBe('auth.forbidden');
    expect(authorize(ROLES.nothing as Actor, 'read', 'Execution')?.code).toBe('auth.forbidden');
  });

  it('reports the scope a listing must apply', () => {
    expect(scopeOf(ROLES.user as Actor, 'read', 'Flow')).toEqual({ kind: 'own', ownerId: ME });
    expect(scopeOf(ROLES.readAllManageOwn as Actor, 'read', 'Flow')).toEqual({ kind: 'all' });
    expect(scopeOf(ROLES.readAllManageOwn as Actor, 'manage', 'Flow')).toEqual({ kind: 'own', ownerId: ME });
    expect(scopeOf(ROLES.nothing as Actor, 'read', 'Flow')).toEqual({ kind: 'none' });
    expect(scopeOf(ROLES.admin as Actor, 'manage', 'Connection')).toEqual({ kind: 'all' });
  });

  it('gives administrators everything even if their permission rows were empty', () => {
    const bareAdmin = actorWith([], true);
    expect(outcome(bareAdmin, 'manage', 'Flow', SOMEONE_ELSE)).toBe('allowed');
    expect(adminOnly(bareAdmin)).toBeNull();
    expect(adminOnly(ROLES.manageAllFlows as Actor)?.code).toBe('auth.forbidden');
  });
});

describe('the permission catalog', () => {
  it('accepts exactly the catalog permissions', () => {
    for (const p of ALL_PERMISSIONS) expect(isInCatalog(p)).toBe(true);
    expect(ALL_PERMISSIONS).toHaveLength(9);
    expect(isInCatalog({ action: 'read', subject: 'Flow', conditions: ['isCreator'] })).toBe(true);
    expect(isInCatalog({ action: 'manage', subject: 'Execution', conditions: [] })).toBe(false);
    expect(isInCatalog({ action: 'delete', subject: 'Flow', conditions: [] })).toBe(false);
    expect(isInCatalog({ action: 'read', subject: 'User', conditions: [] })).toBe(false);
    expect(isInCatalog({ action: 'read', subject: 'Flow', conditions: ['isOwner'] })).toBe(false);
    expect(isInCatalog({ action: 'read', subject: 'Flow', conditions: ['isCreator', 'isCreator'] })).toBe(false);
  });
});

describe('a user’s listed permissions', () => {
  it('are the role’s, and for administrators the users’ administration too, which no role can be given', () => {
    const admin = (ROLES.admin as Actor).user.role;
    expect(listedPermissions(admin)).toEqual([
      ...ALL_PERMISSIONS,
      { action: 'read', subject: 'User', conditions: [] },
      { action: 'manage', subject: 'User', conditions: [] },
    ]);
    const user = (ROLES.user as Actor).user.role;
    expect(listedPermissions(user)).toEqual(user.permissions);
  });
});
