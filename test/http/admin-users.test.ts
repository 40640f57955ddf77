import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../support/clock.js';
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
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const HOUR = 60 * 60_000;
const INVITATION_LINK = /^http:\/\/conveyor\.test\/accept-invitation\?token=[A-Za-z0-9_-]+$/;
const anError = (type: string) => ({ errors: { general: [expect.any(String)] }, meta: { type } });
const invalid = (errors: Record<string, string[]>) => ({ errors, meta: { type: 'ValidationError' } });

const tokenOf = (link: string): string => {
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  return token;
};

// Every admin user route runs here WITHOUT an enterprise licence: they are not enterprise routes.
describe.each(DIALECTS)('admin users (%s)', (dialect) => {
  let smtp: SmtpSink;
  let clock: ManualClock;
  let instance: TestInstance;
  let adminToken: string;
  let roleIds: { Admin: string; User: string };
  beforeAll(async () => {
    smtp = await startSmtpSink();
  });
  afterAll(() => smtp.close());
  beforeEach(async () => {
    smtp.received.length = 0;
    clock = new ManualClock();
    instance = await startTestInstance(dialect, { SMTP_URL: smtp.url }, { clock });
    adminToken = await installAndSignIn(instance);
    const roles: { id: string; name: string }[] = (await call('GET', '/admin/roles')).body.data;
    const idOf = (name: string) => roles.find((r) => r.name === name)?.id ?? '';
    roleIds = { Admin: idOf('Admin'), User: idOf('User') };
  });
  afterEach(() => instance.close());

  const call = (method: string, path: string, body?: unknown, token = adminToken) =>
    instance.request(method, path, { token, ...(body !== undefined && { body }) });
  const invite = (email: string, roleId = roleIds.User) =>
    call('POST', '/admin/users', { fullName: `Invitee ${email}`, email, roleId });
  const accept = (token: string, password: string) =>
    instance.request('POST', '/users/invitation', { body: { token, password } });
  const me = async (token: string) => (await call('GET', '/users/me', undefined, token)).body.data;
  const userCount = async () => (await call('GET', '/admin/users')).body.meta.count;

  it('works without an enterprise licence', async () => {
    expect((await instance.request('GET', '/service/info')).body.data.isEnterprise).toBe(false);
    expect((await call('GET', '/admin/users')).status).toBe(200);
    expect((await invite('dora@example.com')).status).toBe(201);
  });

  describe('GET /admin/users', () => {
    it('pages through every user, each with a role and no secret', async () => {
      for (const name of ['u1', 'u2', 'u3', 'u4']) expect((await invite(`${name}@example.com`)).status).toBe(201);
      const page2 = await call('GET', '/admin/users?page=2&perPage=2');
      expect(page2.status).toBe(200);
      expect(page2.body.meta).toEqual({ type: 'User', count: 5, isArray: true, currentPage: 2, totalPages: 3 });
      expect(page2.body.data).toHaveLength(2);

      const seen: string[] = [];
      for (const page of [1, 2, 3]) {
        const res = await call('GET', `/admin/users?page=${page}&perPage=2`);
        expect(res.body.meta).toMatchObject({ count: 5, currentPage: page, totalPages: 3 });
        for (const user of res.body.data) {
          seen.push(user.email);
          expect(user.role).toMatchObject({ id: user.roleId, name: user.email === ADMIN.email ? 'Admin' : 'User' });
        }
        expect(JSON.stringify(res.body)).not.toMatch(/password|hash/i);
      }
      expect(seen.sort()).toEqual([
        ADMIN.email,
        'u1@example.com',
        'u2@example.com',
        'u3@example.com',
        'u4@example.com',
      ]);

      const all = await call('GET', '/admin/users');
      expect(all.body.meta).toEqual({ type: 'User', count: 5, isArray: true, currentPage: 1, totalPages: 1 });
      expect(all.body.data).toHaveLength(5);
      expect(page2.body.data).toEqual(all.body.data.slice(2, 4));
    });

    it('refuses a page size over 100 and a page that is not a positive whole number', async () => {
      for (const [query, field] of [
        ['perPage=101', 'perPage'],
        ['page=0', 'page'],
        ['page=abc', 'page'],
      ] as const) {
        const res = await call('GET', `/admin/users?${query}`);
        expect(res.status).toBe(422);
        expect(res.body).toEqual(invalid({ [field]: [expect.any(String)] }));
      }
    });
  });

  describe('POST /admin/users (invitation)', () => {
    it('invites a user who becomes active by choosing a password, once', async () => {
      const res = await call('POST', '/admin/users', {
        fullName: 'Carol Invitee',
        email: 'Carol@Example.com',
        roleId: roleIds.User,
      });
      expect(res.status).toBe(201);
      expect(res.body.meta).toEqual({ type: 'User', count: 1, isArray: false, currentPage: null, totalPages: null });
      const invited = res.body.data;
      expect(invited).toMatchObject({ fullName: 'Carol Invitee', email: 'carol@example.com', status: 'invited' });
      expect(invited).toMatchObject({ roleId: roleIds.User, role: { id: roleIds.User, name: 'User' } });
      expect(invited.acceptInvitationUrl).toMatch(INVITATION_LINK);
      expect(JSON.stringify(res.body)).not.toMatch(/password|hash/i);

      const mail = await smtp.waitFor('carol@example.com');
      expect(mail.text).toContain(invited.acceptInvitationUrl);

      const early = await instance.request('POST', '/access-tokens', {
        body: { email: 'carol@example.com', password: 'carol password' },
      });
      expect(early.status).toBe(422);
      expect(early.body.errors).toEqual({ general: ['Incorrect email or password.'] });

      const token = tokenOf(invited.acceptInvitationUrl);
      const accepted = await accept(token, 'carol password');
      expect(accepted.status).toBe(204);
      expect(accepted.body).toBeNull();
      const session = await signIn(instance, 'carol@example.com', 'carol password');
      expect(await me(session)).toMatchObject({
        id: invited.id,
        status: 'active',
        roleId: roleIds.User,
        role: { name: 'User' },
      });

      const again = await accept(token, 'another password');
      expect(again.status).toBe(422);
      expect(again.body).toEqual(invalid({ token: ['is invalid or expired.'] }));
      await expect(signIn(instance, 'carol@example.com', 'carol password')).resolves.toBeTypeOf('string');
    });

    it('refuses an unknown role and a taken e-mail, creating nobody', async () => {
      const unknownRole = await invite('dan@example.com', MISSING_ID);
      expect(unknownRole.status).toBe(422);
      expect(unknownRole.body).toEqual(invalid({ roleId: ['does not exist.'] }));
      const taken = await invite(ADMIN.email.toUpperCase());
      expect(taken.status).toBe(422);
      expect(taken.body).toEqual({
        errors: { email: ["'email' must be unique."] },
        meta: { type: 'UniqueViolationError' },
      });
      expect(await userCount()).toBe(1);
    });

    it('refuses an invitation older than 72 hours', async () => {
      const inTime = (await invite('early@example.com')).body.data;
      const tooLate = (await invite('late@example.com')).body.data;
      clock.advance(72 * HOUR - 1000);
      expect((await accept(tokenOf(inTime.acceptInvitationUrl), 'early password')).status).toBe(204);
      clock.advance(2000);
      const expired = await accept(tokenOf(tooLate.acceptInvitationUrl), 'late password');
      expect(expired.status).toBe(422);
      expect(expired.body).toEqual(invalid({ token: ['is invalid or expired.'] }));
      expect((await call('GET', `/admin/users/${tooLate.id}`)).body.data.status).toBe('invited');
      const signInLate = await instance.request('POST', '/access-tokens', {
        body: { email: 'late@example.com', password: 'late password' },
      });
      expect(signInLate.status).toBe(422);
    });
  });

  describe('GET /admin/users/:userId', () => {
    it('reads one user, and answers 404 for an unknown or malformed id', async () => {
      const { acceptInvitationUrl: _link, ...invited } = (await invite('erin@example.com')).body.data;
      const res = await call('GET', `/admin/users/${invited.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: invited,
        meta: { type: 'User', count: 1, isArray: false, currentPage: null, totalPages: null },
      });
      for (const id of [MISSING_ID, 'not-a-uuid']) {
        const missing = await call('GET', `/admin/users/${id}`);
        expect(missing.status).toBe(404);
        expect(missing.body).toEqual(anError('NotFoundError'));
      }
    });
  });

  describe('PATCH /admin/users/:userId', () => {
    it('changes name, e-mail and role, and the new role applies at once', async () => {
      await enableRegistration(instance, adminToken);
      const bob = await registerAndSignIn(instance, BOB);
      expect((await call('GET', '/admin/users', undefined, bob.token)).status).toBe(403);
      const res = await call('PATCH', `/admin/users/${bob.id}`, {
        fullName: 'Robert Boss',
        email: 'Robert@Example.com',
        roleId: roleIds.Admin,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: bob.id,
        fullName: 'Robert Boss',
        email: 'robert@example.com',
        roleId: roleIds.Admin,
        role: { name: 'Admin', isAdmin: true },
      });
      expect((await call('GET', `/admin/users/${bob.id}`)).body.data).toEqual(res.body.data);
      expect((await call('GET', '/admin/users', undefined, bob.token)).status).toBe(200);
      await expect(signIn(instance, 'robert@example.com', BOB.password)).resolves.toBeTypeOf('string');
    });

    it('refuses to demote the only administrator, and allows it once there is another', async () => {
      const adminId = (await me(adminToken)).id;
      const refused = await call('PATCH', `/admin/users/${adminId}`, { roleId: roleIds.User });
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(anError('LastAdminError'));
      expect((await me(adminToken)).role.name).toBe('Admin');

      await enableRegistration(instance, adminToken);
      const bob = await registerAndSignIn(instance, BOB);
      expect((await call('PATCH', `/admin/users/${bob.id}`, { roleId: roleIds.Admin })).status).toBe(200);
      const demoted = await call('PATCH', `/admin/users/${adminId}`, { roleId: roleIds.User });
      expect(demoted.status).toBe(200);
      expect(demoted.body.data.role).toMatchObject({ name: 'User', isAdmin: false });
      expect((await call('GET', '/admin/users')).status).toBe(403);
    });

    it('refuses unknown keys, unknown roles and taken e-mails, changing nothing', async () => {
      const { acceptInvitationUrl: _link, ...invited } = (await invite('fay@example.com')).body.data;
      const status = await call('PATCH', `/admin/users/${invited.id}`, { fullName: 'Fay', status: 'active' });
      expect(status.status).toBe(422);
      expect(status.body).toEqual(invalid({ status: ['is not allowed.'] }));
      const role = await call('PATCH', `/admin/users/${invited.id}`, { roleId: MISSING_ID });
      expect(role.status).toBe(422);
      expect(role.body).toEqual(invalid({ roleId: ['does not exist.'] }));
      const taken = await call('PATCH', `/admin/users/${invited.id}`, { email: ADMIN.email });
      expect(taken.status).toBe(422);
      expect(taken.body.meta.type).toBe('UniqueViolationError');
      expect((await call('GET', `/admin/users/${invited.id}`)).body.data).toEqual(invited);
      expect((await call('PATCH', `/admin/users/${MISSING_ID}`, { fullName: 'Nobody' })).status).toBe(404);
    });
  });

  describe('DELETE /admin/users/:userId', () => {
    it('removes the user, ends their sessions and drops them from the list', async () => {
      await enableRegistration(instance, adminToken);
      const bob = await registerAndSignIn(instance, BOB);
      const second = await signIn(instance, BOB.email, BOB.password);
      expect(await userCount()).toBe(2);
      const res = await call('DELETE', `/admin/users/${bob.id}`);
      expect(res.status).toBe(204);
      expect(res.body).toBeNull();
      for (const token of [bob.token, second]) {
        expect((await call('GET', '/users/me', undefined, token)).status).toBe(401);
      }
      const list = await call('GET', '/admin/users');
      expect(list.body.meta.count).toBe(1);
      expect(list.body.data.map((u: { id: string }) => u.id)).not.toContain(bob.id);
      expect((await call('GET', `/admin/users/${bob.id}`)).status).toBe(404);
      expect((await call('DELETE', `/admin/users/${bob.id}`)).status).toBe(404);
    });

    it('refuses to delete oneself, and answers 404 for an unknown or malformed id', async () => {
      const self = await call('DELETE', `/admin/users/${(await me(adminToken)).id}`);
      expect(self.status).toBe(403);
      expect(self.body).toEqual(anError('ForbiddenError'));
      expect((await call('GET', '/users/me')).status).toBe(200);
      for (const id of [MISSING_ID, 'not-a-uuid']) {
        const missing = await call('DELETE', `/admin/users/${id}`);
        expect(missing.status).toBe(404);
        expect(missing.body).toEqual(anError('NotFoundError'));
      }
    });
  });
});
