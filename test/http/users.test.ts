import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import {
  ADMIN,
  BOB,
  enableRegistration,
  installAndSignIn,
  registerAndSignIn,
  signIn,
  startTestInstance,
  type TestInstance,
} from '../support/http.js';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe.each(DIALECTS)('users (%s)', (dialect) => {
  let instance: TestInstance;
  let adminToken: string;
  beforeEach(async () => {
    instance = await startTestInstance(dialect);
    adminToken = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  const me = async (token: string) => (await instance.request('GET', '/users/me', { token })).body.data;

  describe('GET /users/me', () => {
    it('returns the caller with role and permissions, and no secret', async () => {
      const res = await instance.request('GET', '/users/me', { token: adminToken });
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ type: 'User', count: 1, isArray: false, currentPage: null, totalPages: null });
      const user = res.body.data;
      expect(user).toMatchObject({ email: ADMIN.email, fullName: ADMIN.fullName, status: 'active' });
      expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
      // Milliseconds since the epoch, as Automatisch's serializers give them.
      expect(Number.isSafeInteger(user.createdAt)).toBe(true);
      expect(Math.abs(user.createdAt - Date.now())).toBeLessThan(60_000);
      expect(user.updatedAt).toBeGreaterThanOrEqual(user.createdAt);
      expect(user.role.createdAt).toEqual(expect.any(Number));
      expect(user.role).toMatchObject({ name: 'Admin', isAdmin: true });
      expect(user.permissions).toContainEqual({ action: 'manage', subject: 'Flow', conditions: [] });
      expect(JSON.stringify(res.body)).not.toMatch(/password|hash/i);
    });

    it('lists what an administrator may do as Automatisch does without a licence: users too', async () => {
      const permissions = (await me(adminToken)).permissions;
      expect(permissions).toEqual(
        expect.arrayContaining([
          { action: 'read', subject: 'User', conditions: [] },
          { action: 'manage', subject: 'User', conditions: [] },
          { action: 'read', subject: 'Execution', conditions: [] },
          { action: 'manage', subject: 'Agent', conditions: [] },
          { action: 'manage', subject: 'McpServer', conditions: [] },
        ]),
      );
      expect(permissions).toHaveLength(11);
      await enableRegistration(instance, adminToken);
      const bob = await registerAndSignIn(instance, BOB);
      const subjects = (await me(bob.token)).permissions.map((p: { subject: string }) => p.subject);
      expect(subjects).not.toContain('User');
    });

    it('is 401 without credentials', async () => {
      expect((await instance.request('GET', '/users/me')).status).toBe(401);
    });
  });

  describe('POST /users (registration)', () => {
    it('is 403 while registration is disabled', async () => {
      const res = await instance.request('POST', '/users', { body: BOB });
      expect(res.status).toBe(403);
      expect(res.body.meta.type).toBe('ForbiddenError');
    });

    it('registers a User-role account when enabled', async () => {
      await enableRegistration(instance, adminToken);
      const res = await instance.request('POST', '/users', { body: BOB });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ email: BOB.email, fullName: BOB.fullName, status: 'active' });
      expect(res.body.data.role).toMatchObject({ name: 'User', isAdmin: false });
      expect(res.body.data.permissions).toContainEqual({ action: 'read', subject: 'Flow', conditions: ['isCreator'] });
      await expect(signIn(instance, BOB.email, BOB.password)).resolves.toBeTypeOf('string');
      expect((await instance.request('GET', '/service/info')).body.data.registrationEnabled).toBe(true);
    });

    it('refuses a taken e-mail through the shared unique-violation shape', async () => {
      await enableRegistration(instance, adminToken);
      const res = await instance.request('POST', '/users', { body: { ...BOB, email: ADMIN.email.toUpperCase() } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        errors: { email: ["'email' must be unique."] },
        meta: { type: 'UniqueViolationError' },
      });
    });

    it('ignores no field silently: a role cannot be chosen', async () => {
      await enableRegistration(instance, adminToken);
      const res = await instance.request('POST', '/users', { body: { ...BOB, roleId: (await me(adminToken)).roleId } });
      expect(res.status).toBe(201);
      expect(res.body.data.role.name).toBe('User');
    });
  });

  describe('PATCH /users/:userId', () => {
    it('updates the caller’s own name and e-mail', async () => {
      const { id } = await me(adminToken);
      const res = await instance.request('PATCH', `/users/${id}`, {
        token: adminToken,
        body: { fullName: 'Ada Lovelace', email: 'Lovelace@Example.com' },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id, fullName: 'Ada Lovelace', email: 'lovelace@example.com' });
      await expect(signIn(instance, 'lovelace@example.com', ADMIN.password)).resolves.toBeTypeOf('string');
    });

    it('refuses role changes (mass assignment) with 422 and changes nothing', async () => {
      await enableRegistration(instance, adminToken);
      const bob = await registerAndSignIn(instance, BOB);
      const adminRoleId = (await me(adminToken)).roleId;
      const res = await instance.request('PATCH', `/users/${bob.id}`, {
        token: bob.token,
        body: { fullName: 'Bob Boss', roleId: adminRoleId, status: 'active' },
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: { roleId: ['is not allowed.'] }, meta: { type: 'ValidationError' } });
      const after = await me(bob.token);
      expect(after.role.name).toBe('User');
      expect(after.fullName).toBe(BOB.fullName);
    });

    it('is 403 for another user’s id, even for an admin', async () => {
      await enableRegistration(instance, adminToken);
      const bob = await registerAndSignIn(instance, BOB);
      const asAdmin = await instance.request('PATCH', `/users/${bob.id}`, {
        token: adminToken,
        body: { fullName: 'X' },
      });
      expect(asAdmin.status).toBe(403);
      const asBob = await instance.request('PATCH', `/users/${(await me(adminToken)).id}`, {
        token: bob.token,
        body: { fullName: 'X' },
      });
      expect(asBob.status).toBe(403);
      expect((await me(bob.token)).fullName).toBe(BOB.fullName);
    });

    it('is 404 for a malformed id and 401 without credentials', async () => {
      expect((await instance.request('PATCH', '/users/not-a-uuid', { token: adminToken, body: {} })).status).toBe(404);
      expect((await instance.request('PATCH', `/users/${MISSING_ID}`, { body: {} })).status).toBe(401);
    });

    it('validates fields and refuses a taken e-mail', async () => {
      await enableRegistration(instance, adminToken);
      const bob = await registerAndSignIn(instance, BOB);
      const invalid = await instance.request('PATCH', `/users/${bob.id}`, {
        token: bob.token,
        body: { fullName: '', email: 'nope' },
      });
      expect(invalid.status).toBe(422);
      expect(invalid.body.errors).toEqual({ fullName: ['is required.'], email: ['must be a valid e-mail address.'] });
      const taken = await instance.request('PATCH', `/users/${bob.id}`, {
        token: bob.token,
        body: { email: ADMIN.email },
      });
      expect(taken.status).toBe(422);
      expect(taken.body.meta.type).toBe('UniqueViolationError');
    });
  });

  describe('PATCH /users/:userId/password', () => {
    it('needs the current password', async () => {
      const { id } = await me(adminToken);
      const res = await instance.request('PATCH', `/users/${id}/password`, {
        token: adminToken,
        body: { currentPassword: 'wrong password', password: 'new password 1' },
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: { currentPassword: ['is incorrect.'] }, meta: { type: 'ValidationError' } });
      await expect(signIn(instance, ADMIN.email, ADMIN.password)).resolves.toBeTypeOf('string');
    });

    it('stops taking guesses of the current password after the sign-in budget, and a right one clears the count', async () => {
      const { id } = await me(adminToken);
      const change = (currentPassword: string, password = 'another password 1') =>
        instance.request('PATCH', `/users/${id}/password`, { token: adminToken, body: { currentPassword, password } });
      for (let i = 0; i < 9; i++) expect((await change(`guess ${i}`)).status).toBe(422);
      // The tenth attempt is still counted in budget; a right password clears the count.
      expect((await change(ADMIN.password, ADMIN.password)).status).toBe(200);
      for (let i = 0; i < 10; i++) expect((await change(`guess ${i}`)).status).toBe(422);
      const refused = await change(ADMIN.password);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    });

    it('changes the password and signs out the other sessions', async () => {
      const other = await signIn(instance, ADMIN.email, ADMIN.password);
      const { id } = await me(adminToken);
      const res = await instance.request('PATCH', `/users/${id}/password`, {
        token: adminToken,
        body: { currentPassword: ADMIN.password, password: 'a brand new password' },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.id).toBe(id);
      expect(res.body.data.updatedAt).toBeGreaterThan(res.body.data.createdAt);
      expect((await instance.request('GET', '/users/me', { token: adminToken })).status).toBe(200);
      expect((await instance.request('GET', '/users/me', { token: other })).status).toBe(401);
      const old = await instance.request('POST', '/access-tokens', {
        body: { email: ADMIN.email, password: ADMIN.password },
      });
      expect(old.status).toBe(422);
      await expect(signIn(instance, ADMIN.email, 'a brand new password')).resolves.toBeTypeOf('string');
    });

    it('enforces the length rule and the own-account rule', async () => {
      await enableRegistration(instance, adminToken);
      const bob = await registerAndSignIn(instance, BOB);
      const short = await instance.request('PATCH', `/users/${bob.id}/password`, {
        token: bob.token,
        body: { currentPassword: BOB.password, password: 'short' },
      });
      expect(short.status).toBe(422);
      expect(short.body.errors).toEqual({ password: ['must be at least 8 characters.'] });
      const foreign = await instance.request('PATCH', `/users/${(await me(adminToken)).id}/password`, {
        token: bob.token,
        body: { currentPassword: BOB.password, password: 'hijacked password' },
      });
      expect(foreign.status).toBe(403);
    });
  });

  describe('DELETE /users/:userId', () => {
    it('removes the caller, revokes every token and frees the e-mail', async () => {
      await enableRegistration(instance, adminToken);
      const bob = await registerAndSignIn(instance, BOB);
      const second = await signIn(instance, BOB.email, BOB.password);
      const res = await instance.request('DELETE', `/users/${bob.id}`, { token: bob.token });
      expect(res.status).toBe(204);
      for (const token of [bob.token, second]) {
        expect((await instance.request('GET', '/users/me', { token })).status).toBe(401);
      }
      const signInAgain = await instance.request('POST', '/access-tokens', {
        body: { email: BOB.email, password: BOB.password },
      });
      expect(signInAgain.status).toBe(422);
      expect((await instance.request('POST', '/users', { body: BOB })).status).toBe(201);
    });

    it('is 403 for another user and 404 for a malformed id', async () => {
      await enableRegistration(instance, adminToken);
      const bob = await registerAndSignIn(instance, BOB);
      expect((await instance.request('DELETE', `/users/${bob.id}`, { token: adminToken })).status).toBe(403);
      expect((await instance.request('DELETE', '/users/me', { token: bob.token })).status).toBe(404);
      expect((await instance.request('GET', '/users/me', { token: bob.token })).status).toBe(200);
    });

    it('refuses to remove the last administrator', async () => {
      const { id } = await me(adminToken);
      const res = await instance.request('DELETE', `/users/${id}`, { token: adminToken });
      expect(res.status).toBe(422);
      expect(res.body.meta.type).toBe('LastAdminError');
      expect((await instance.request('GET', '/users/me', { token: adminToken })).status).toBe(200);
    });

    it('is 401 without credentials', async () => {
      expect((await instance.request('DELETE', `/users/${MISSING_ID}`)).status).toBe(401);
    });
  });
});

describe.each(DIALECTS)('the internal mount (%s)', (dialect) => {
  it('serves the account routes identically', async () => {
    const instance = await startTestInstance(dialect);
    try {
      const internal = { mount: '/internal/api/v1' };
      expect((await instance.request('POST', '/installation/users', { ...internal, body: ADMIN })).status).toBe(204);
      const signedIn = await instance.request('POST', '/access-tokens', {
        ...internal,
        body: { email: ADMIN.email, password: ADMIN.password },
      });
      expect(signedIn.status).toBe(200);
      const token = signedIn.body.data.token as string;
      const viaInternal = await instance.request('GET', '/users/me', { ...internal, token });
      const viaPublic = await instance.request('GET', '/users/me', { token });
      expect(viaInternal.status).toBe(200);
      expect(viaInternal.body).toEqual(viaPublic.body);
      expect((await instance.request('GET', '/users/me', internal)).status).toBe(401);
      const revoked = await instance.request('DELETE', `/access-tokens/${token}`, { ...internal, token });
      expect(revoked.status).toBe(204);
      expect((await instance.request('GET', '/users/me', { token })).status).toBe(401);
    } finally {
      await instance.close();
    }
  });
});
