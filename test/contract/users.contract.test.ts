import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { err, ok } from '../../core/domain/result.js';
import { DIALECTS } from '../support/databases.js';
import { at, insertUser, MINUTE, openFixture, type PersistenceFixture, roleId, T0 } from './persistence-fixture.js';

describe.each(DIALECTS)('user repository contract (%s)', (dialect) => {
  let fx: PersistenceFixture;
  beforeEach(async () => {
    fx = await openFixture(dialect);
  });
  afterEach(() => fx.close());

  it('inserts a user and finds it by id with its role and permissions', async () => {
    const id = randomUUID();
    const userRoleId = await roleId(fx.repos, 'User');
    const inserted = await fx.repos.users.insert({
      id,
      email: 'ada@example.com',
      fullName: 'Ada Lovelace',
      passwordHash: 'argon2-hash',
      roleId: userRoleId,
      status: 'invited',
      now: T0,
    });
    const expected = {
      id,
      email: 'ada@example.com',
      fullName: 'Ada Lovelace',
      status: 'invited',
      roleId: userRoleId,
      createdAt: T0,
      updatedAt: T0,
    };
    expect(inserted).toEqual(expected);

    const found = await fx.repos.users.findById(id);
    expect(found).toMatchObject(expected);
    expect(found?.role).toMatchObject({ id: userRoleId, name: 'User', isAdmin: false });
    expect(found?.role.permissions).toHaveLength(5);
    for (const permission of found?.role.permissions ?? []) expect(permission.conditions).toEqual(['isCreator']);
    expect(found).not.toHaveProperty('passwordHash');
  });

  it('loads the Admin role with unconditional permissions', async () => {
    const id = await insertUser(fx.repos, { role: 'Admin' });
    const found = await fx.repos.users.findById(id);
    expect(found?.role).toMatchObject({ name: 'Admin', isAdmin: true });
    expect(found?.role.permissions).toHaveLength(9);
    for (const permission of found?.role.permissions ?? []) expect(permission.conditions).toEqual([]);
  });

  it('answers null for an unknown id or e-mail', async () => {
    expect(await fx.repos.users.findById(randomUUID())).toBeNull();
    expect(await fx.repos.users.findCredentialsById(randomUUID())).toBeNull();
    expect(await fx.repos.users.findCredentialsByEmail('nobody@example.com')).toBeNull();
  });

  it('returns the password hash with the credentials, by e-mail and by id', async () => {
    const id = await insertUser(fx.repos, { email: 'bob@example.com', passwordHash: 'bob-hash' });
    const invitedId = await insertUser(fx.repos, { email: 'carol@example.com', passwordHash: null });

    const byEmail = await fx.repos.users.findCredentialsByEmail('bob@example.com');
    expect(byEmail?.passwordHash).toBe('bob-hash');
    expect(byEmail?.user).toMatchObject({ id, email: 'bob@example.com' });
    const byId = await fx.repos.users.findCredentialsById(id);
    expect(byId?.passwordHash).toBe('bob-hash');
    expect(byId?.user.id).toBe(id);
    expect((await fx.repos.users.findCredentialsById(invitedId))?.passwordHash).toBeNull();
  });

  it('refuses a duplicate e-mail inside a unit of work and commits nothing of it', async () => {
    await insertUser(fx.repos, { email: 'taken@example.com' });
    const otherId = randomUUID();
    const result = await fx.uow.run(async (repos) => {
      await insertUser(repos, { email: 'fresh@example.com' });
      await repos.users.insert({
        id: otherId,
        email: 'taken@example.com',
        fullName: 'Impostor',
        passwordHash: null,
        roleId: await roleId(repos, 'User'),
        status: 'active',
        now: T0,
      });
      return ok(undefined);
    });
    expect(result).toEqual(err({ code: 'unique.violation', field: 'email' }));
    expect(await fx.repos.users.findCredentialsByEmail('fresh@example.com')).toBeNull();
    expect(await fx.repos.users.findById(otherId)).toBeNull();
    expect((await fx.repos.users.findCredentialsByEmail('taken@example.com'))?.user.fullName).toBe('Test User');
  });

  it('hides a soft-deleted user from every finder and frees its e-mail', async () => {
    const id = await insertUser(fx.repos, { email: 'gone@example.com', role: 'Admin' });
    await fx.repos.users.softDelete(id, at(MINUTE));

    expect(await fx.repos.users.findById(id)).toBeNull();
    expect(await fx.repos.users.findCredentialsById(id)).toBeNull();
    expect(await fx.repos.users.findCredentialsByEmail('gone@example.com')).toBeNull();
    expect(await fx.repos.users.countActiveAdmins()).toBe(0);

    const result = await fx.uow.run(async (repos) => ok(await insertUser(repos, { email: 'gone@example.com' })));
    expect(result.ok).toBe(true);
    const again = await fx.repos.users.findCredentialsByEmail('gone@example.com');
    expect(again?.user.id).toBe(result.ok ? result.value : undefined);
    expect(again?.user.id).not.toBe(id);
  });

  it('updates the profile of a live user, changing only what is given', async () => {
    const id = await insertUser(fx.repos, { email: 'old@example.com', fullName: 'Old Name' });
    await fx.repos.users.updateProfile(id, { fullName: 'New Name' }, at(MINUTE));
    let found = await fx.repos.users.findById(id);
    expect(found).toMatchObject({
      fullName: 'New Name',
      email: 'old@example.com',
      createdAt: T0,
      updatedAt: at(MINUTE),
    });

    await fx.repos.users.updateProfile(id, { email: 'new@example.com' }, at(2 * MINUTE));
    found = await fx.repos.users.findById(id);
    expect(found).toMatchObject({ fullName: 'New Name', email: 'new@example.com', updatedAt: at(2 * MINUTE) });
    expect(await fx.repos.users.findCredentialsByEmail('old@example.com')).toBeNull();
  });

  it('updates the password hash of a live user only', async () => {
    const id = await insertUser(fx.repos, { passwordHash: 'first' });
    const bystander = await insertUser(fx.repos, { passwordHash: 'theirs' });
    await fx.repos.users.updatePasswordHash(id, 'second', at(MINUTE));
    const credentials = await fx.repos.users.findCredentialsById(id);
    expect(credentials?.passwordHash).toBe('second');
    expect(credentials?.user.updatedAt).toEqual(at(MINUTE));
    expect((await fx.repos.users.findCredentialsById(bystander))?.passwordHash).toBe('theirs');
  });

  it('does not change a soft-deleted user', async () => {
    const id = await insertUser(fx.repos, { email: 'deleted@example.com', fullName: 'Deleted', passwordHash: 'old' });
    await fx.repos.users.softDelete(id, at(MINUTE));
    await fx.repos.users.updateProfile(id, { fullName: 'Revived', email: 'revived@example.com' }, at(2 * MINUTE));
    await fx.repos.users.updatePasswordHash(id, 'new', at(2 * MINUTE));
    expect(await fx.repos.users.findCredentialsByEmail('revived@example.com')).toBeNull();
    const row = await fx.handle.db
      .selectFrom('users')
      .select(['full_name', 'email', 'password_hash'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ full_name: 'Deleted', email: 'deleted@example.com', password_hash: 'old' });
  });

  it('counts only active, live users of the Admin role', async () => {
    expect(await fx.repos.users.countActiveAdmins()).toBe(0);
    await insertUser(fx.repos, { role: 'Admin' });
    await insertUser(fx.repos, { role: 'Admin' });
    await insertUser(fx.repos, { role: 'Admin', status: 'invited' });
    await insertUser(fx.repos, { role: 'User' });
    const deleted = await insertUser(fx.repos, { role: 'Admin' });
    expect(await fx.repos.users.countActiveAdmins()).toBe(3);
    await fx.repos.users.softDelete(deleted, at(MINUTE));
    expect(await fx.repos.users.countActiveAdmins()).toBe(2);
  });
});
