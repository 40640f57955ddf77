import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { at, insertUser, MINUTE, openFixture, type PersistenceFixture, roleId, T0 } from './persistence-fixture.js';

describe.each(DIALECTS)('user repository administration contract (%s)', (dialect) => {
  let fx: PersistenceFixture;
  beforeEach(async () => {
    fx = await openFixture(dialect);
  });
  afterEach(() => fx.close());

  describe('list', () => {
    /** The ids of the live users, oldest first (by creation, then id). */
    let expectedOrder: string[];
    beforeEach(async () => {
      // Inserted out of order, with a tie on the creation instant and a soft-deleted user among them.
      const specs = [
        { createdAt: at(3 * MINUTE), role: 'User' as const },
        { createdAt: at(MINUTE), role: 'Admin' as const },
        { createdAt: T0, role: 'User' as const },
        { createdAt: at(MINUTE), role: 'User' as const },
        { createdAt: at(2 * MINUTE), role: 'User' as const },
      ];
      const live: Array<{ id: string; createdAt: Date }> = [];
      for (const spec of specs) {
        const id = await insertUser(fx.repos, { role: spec.role, now: spec.createdAt });
        live.push({ id, createdAt: spec.createdAt });
      }
      const deleted = await insertUser(fx.repos, { now: at(MINUTE / 2) });
      await fx.repos.users.softDelete(deleted, at(4 * MINUTE));
      expectedOrder = live
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((u) => u.id);
    });

    it('returns all live users oldest first with their roles and permissions', async () => {
      const page = await fx.repos.users.list({ page: 1, perPage: 10 });
      expect(page).toMatchObject({ total: 5, page: 1, perPage: 10 });
      expect(page.items.map((u) => u.id)).toEqual(expectedOrder);
      expect(page.items.map((u) => u.createdAt)).toEqual([T0, at(MINUTE), at(MINUTE), at(2 * MINUTE), at(3 * MINUTE)]);
      for (const user of page.items) {
        expect(user.role.id).toBe(user.roleId);
        expect(user.role.permissions).toHaveLength(user.role.name === 'Admin' ? 9 : 5);
        expect(user).not.toHaveProperty('passwordHash');
      }
      const admins = page.items.filter((u) => u.role.isAdmin);
      expect(admins).toHaveLength(1);
      expect(admins[0]?.role.name).toBe('Admin');
      for (const permission of admins[0]?.role.permissions ?? []) expect(permission.conditions).toEqual([]);
      const users = page.items.filter((u) => u.role.name === 'User');
      expect(users).toHaveLength(4);
      for (const user of users) for (const p of user.role.permissions) expect(p.conditions).toEqual(['isCreator']);
    });

    it('slices pages and counts only live users', async () => {
      const first = await fx.repos.users.list({ page: 1, perPage: 2 });
      const second = await fx.repos.users.list({ page: 2, perPage: 2 });
      const third = await fx.repos.users.list({ page: 3, perPage: 2 });
      expect(first).toMatchObject({ total: 5, page: 1, perPage: 2 });
      expect(second).toMatchObject({ total: 5, page: 2, perPage: 2 });
      expect(third).toMatchObject({ total: 5, page: 3, perPage: 2 });
      expect(first.items.map((u) => u.id)).toEqual(expectedOrder.slice(0, 2));
      expect(second.items.map((u) => u.id)).toEqual(expectedOrder.slice(2, 4));
      expect(third.items.map((u) => u.id)).toEqual(expectedOrder.slice(4));
    });

    it('answers an empty page past the end', async () => {
      const past = await fx.repos.users.list({ page: 4, perPage: 2 });
      expect(past).toEqual({ items: [], total: 5, page: 4, perPage: 2 });
    });
  });

  it('lists nothing when there are no live users', async () => {
    const gone = await insertUser(fx.repos);
    await fx.repos.users.softDelete(gone, at(MINUTE));
    expect(await fx.repos.users.list({ page: 1, perPage: 20 })).toEqual({ items: [], total: 0, page: 1, perPage: 20 });
  });

  it('moves a user to another role', async () => {
    const id = await insertUser(fx.repos, { email: 'mover@example.com', fullName: 'Mover' });
    const adminRoleId = await roleId(fx.repos, 'Admin');
    await fx.repos.users.updateProfile(id, { roleId: adminRoleId }, at(MINUTE));
    const found = await fx.repos.users.findById(id);
    expect(found).toMatchObject({
      roleId: adminRoleId,
      email: 'mover@example.com',
      fullName: 'Mover',
      updatedAt: at(MINUTE),
    });
    expect(found?.role).toMatchObject({ id: adminRoleId, name: 'Admin', isAdmin: true });
    expect(await fx.repos.users.countActiveAdmins()).toBe(1);
  });

  it('activates an invited user with a password', async () => {
    const id = await insertUser(fx.repos, { status: 'invited', passwordHash: null });
    const bystander = await insertUser(fx.repos, { status: 'invited', passwordHash: null });
    await fx.repos.users.activate(id, 'chosen-hash', at(MINUTE));

    const credentials = await fx.repos.users.findCredentialsById(id);
    expect(credentials?.passwordHash).toBe('chosen-hash');
    expect(credentials?.user).toMatchObject({ status: 'active', createdAt: T0, updatedAt: at(MINUTE) });
    const other = await fx.repos.users.findCredentialsById(bystander);
    expect(other?.passwordHash).toBeNull();
    expect(other?.user.status).toBe('invited');
  });

  it('does not activate a soft-deleted user', async () => {
    const id = await insertUser(fx.repos, { status: 'invited', passwordHash: null });
    await fx.repos.users.softDelete(id, at(MINUTE));
    await fx.repos.users.activate(id, 'chosen-hash', at(2 * MINUTE));

    expect(await fx.repos.users.findCredentialsById(id)).toBeNull();
    const row = await fx.handle.db
      .selectFrom('users')
      .select(['status', 'password_hash'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'invited', password_hash: null });
  });

  it('does nothing when activating an unknown user', async () => {
    await fx.repos.users.activate(randomUUID(), 'chosen-hash', at(MINUTE));
    expect(await fx.repos.users.list({ page: 1, perPage: 10 })).toMatchObject({ items: [], total: 0 });
  });
});
