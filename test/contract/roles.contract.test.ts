import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { err, ok } from '../../core/domain/result.js';
import type { Permission } from '../../core/domain/role.js';
import type { Repositories } from '../../ports/repositories.js';
import { DIALECTS } from '../support/databases.js';
import { at, MINUTE, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

const EDITOR_PERMISSIONS: readonly Permission[] = [
  { action: 'read', subject: 'Flow', conditions: ['isCreator'] },
  { action: 'manage', subject: 'Connection', conditions: [] },
];

/** Inserts a role at T0 and returns its id. */
const insertRole = async (
  repos: Repositories,
  name: string,
  permissions: readonly Permission[] = EDITOR_PERMISSIONS,
): Promise<string> => {
  const id = randomUUID();
  await repos.roles.insert({ id, name, description: `${name} role`, permissions, now: T0 });
  return id;
};

/** Inserts a live, active user holding the role and returns its id. */
const insertUserWithRole = async (repos: Repositories, roleId: string): Promise<string> => {
  const id = randomUUID();
  await repos.users.insert({
    id,
    email: `${id}@example.com`,
    fullName: 'Role Holder',
    passwordHash: 'hash',
    roleId,
    status: 'active',
    now: T0,
  });
  return id;
};

describe.each(DIALECTS)('role repository contract (%s)', (dialect) => {
  let fx: PersistenceFixture;
  beforeEach(async () => {
    fx = await openFixture(dialect);
  });
  afterEach(() => fx.close());

  const permissionRowsOf = (roleId: string) =>
    fx.handle.db.selectFrom('permissions').select(['action', 'subject']).where('role_id', '=', roleId).execute();

  it('lists the seeded roles and inserted ones, by name', async () => {
    const seeded = await fx.repos.roles.list();
    expect(seeded.map((r) => r.name)).toEqual(['Admin', 'User']);
    expect(seeded.map((r) => r.isAdmin)).toEqual([true, false]);

    await insertRole(fx.repos, 'Zeta');
    await insertRole(fx.repos, 'Auditor');
    const all = await fx.repos.roles.list();
    expect(all.map((r) => r.name)).toEqual(['Admin', 'Auditor', 'User', 'Zeta']);
    expect(all.find((r) => r.name === 'Auditor')?.permissions).toHaveLength(2);
  });

  it('inserts a role with its description and permissions, never as an admin role', async () => {
    const id = randomUUID();
    const inserted = await fx.repos.roles.insert({
      id,
      name: 'Editor',
      description: 'Edits flows',
      permissions: EDITOR_PERMISSIONS,
      now: T0,
    });
    const expected = {
      id,
      name: 'Editor',
      description: 'Edits flows',
      isAdmin: false,
      createdAt: T0,
      updatedAt: T0,
    };
    expect(inserted).toMatchObject(expected);
    expect(inserted.permissions).toEqual(expect.arrayContaining([...EDITOR_PERMISSIONS]));
    expect(inserted.permissions).toHaveLength(2);

    const found = await fx.repos.roles.findById(id);
    expect(found).toMatchObject(expected);
    expect(found?.permissions).toEqual(expect.arrayContaining([...EDITOR_PERMISSIONS]));
    expect(found?.permissions).toHaveLength(2);
    expect(await fx.repos.roles.findByName('Editor')).toEqual(found);
  });

  it('inserts a role without a description or permissions', async () => {
    const id = randomUUID();
    await fx.repos.roles.insert({ id, name: 'Empty', description: null, permissions: [], now: T0 });
    const found = await fx.repos.roles.findById(id);
    expect(found).toMatchObject({ name: 'Empty', description: null, isAdmin: false, permissions: [] });
  });

  it('refuses a duplicate name inside a unit of work and commits nothing of it', async () => {
    const freshId = randomUUID();
    const result = await fx.uow.run(async (repos) => {
      await repos.roles.insert({ id: freshId, name: 'Fresh', description: null, permissions: [], now: T0 });
      await insertRole(repos, 'User');
      return ok(undefined);
    });
    expect(result).toEqual(err({ code: 'unique.violation', field: 'name' }));
    expect(await fx.repos.roles.findById(freshId)).toBeNull();
    expect(await fx.repos.roles.findByName('Fresh')).toBeNull();
    expect((await fx.repos.roles.list()).map((r) => r.name)).toEqual(['Admin', 'User']);
    const permissionRows = await fx.handle.db.selectFrom('permissions').select('id').execute();
    expect(permissionRows).toHaveLength(14);
  });

  it('answers null for an unknown id or name', async () => {
    expect(await fx.repos.roles.findById(randomUUID())).toBeNull();
    expect(await fx.repos.roles.findByName('Nobody')).toBeNull();
  });

  it('replaces the name, description and whole permission set', async () => {
    const id = await insertRole(fx.repos, 'Editor');
    const replacement: readonly Permission[] = [
      { action: 'read', subject: 'Execution', conditions: [] },
      { action: 'manage', subject: 'Flow', conditions: ['isCreator'] },
      { action: 'read', subject: 'Flow', conditions: [] },
    ];
    await fx.repos.roles.update(id, { name: 'Reviewer', description: 'Reviews', permissions: replacement }, at(MINUTE));

    const found = await fx.repos.roles.findById(id);
    expect(found).toMatchObject({
      id,
      name: 'Reviewer',
      description: 'Reviews',
      isAdmin: false,
      createdAt: T0,
      updatedAt: at(MINUTE),
    });
    expect(found?.permissions).toEqual(expect.arrayContaining([...replacement]));
    expect(found?.permissions).toHaveLength(3);
    expect(found?.permissions).not.toContainEqual(EDITOR_PERMISSIONS[1]);
    expect(await fx.repos.roles.findByName('Editor')).toBeNull();
    expect(await permissionRowsOf(id)).toHaveLength(3);

    await fx.repos.roles.update(id, { name: 'Reviewer', description: null, permissions: [] }, at(2 * MINUTE));
    expect(await fx.repos.roles.findById(id)).toMatchObject({ description: null, permissions: [] });
    expect(await permissionRowsOf(id)).toEqual([]);
  });

  it('deletes a role with its permission rows, leaving the others alone', async () => {
    const id = await insertRole(fx.repos, 'Doomed');
    const userRole = await fx.repos.roles.findByName('User');
    expect(await permissionRowsOf(id)).toHaveLength(2);

    await fx.repos.roles.delete(id);
    expect(await fx.repos.roles.findById(id)).toBeNull();
    expect(await permissionRowsOf(id)).toEqual([]);
    expect((await fx.repos.roles.list()).map((r) => r.name)).toEqual(['Admin', 'User']);
    expect(await fx.repos.roles.findByName('User')).toEqual(userRole);
  });

  it('counts only the live users holding the role', async () => {
    const id = await insertRole(fx.repos, 'Counted');
    expect(await fx.repos.roles.countUsers(id)).toBe(0);

    await insertUserWithRole(fx.repos, id);
    await insertUserWithRole(fx.repos, id);
    const leaving = await insertUserWithRole(fx.repos, id);
    const userRole = await fx.repos.roles.findByName('User');
    if (!userRole) throw new Error('The User role is not seeded');
    await insertUserWithRole(fx.repos, userRole.id);
    expect(await fx.repos.roles.countUsers(id)).toBe(3);

    await fx.repos.users.softDelete(leaving, at(MINUTE));
    expect(await fx.repos.roles.countUsers(id)).toBe(2);
    expect(await fx.repos.roles.countUsers(userRole.id)).toBe(1);
    expect(await fx.repos.roles.countUsers(randomUUID())).toBe(0);
  });
});
