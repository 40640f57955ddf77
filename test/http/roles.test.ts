import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { enterpriseEnv } from '../support/enterprise.js';
import {
  BOB,
  enableRegistration,
  installAndSignIn,
  registerAndSignIn,
  startTestInstance,
  type TestInstance,
} from '../support/http.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Permission {
  action: string;
  subject: string;
  conditions: string[];
}
const perm = (action: string, subject: string, ...conditions: string[]): Permission => ({
  action,
  subject,
  conditions,
});
const sorted = (permissions: Permission[]) =>
  [...permissions].sort((a, b) => `${a.subject}:${a.action}`.localeCompare(`${b.subject}:${b.action}`));

const USER_PERMISSIONS = sorted([
  perm('read', 'Flow', 'isCreator'),
  perm('manage', 'Flow', 'isCreator'),
  perm('read', 'Connection', 'isCreator'),
  perm('manage', 'Connection', 'isCreator'),
  perm('read', 'Execution', 'isCreator'),
]);
/** The User role's without the condition, and agents and MCP servers, which only the Admin role is seeded with (as Automatisch). */
const ADMIN_PERMISSIONS = sorted([
  ...USER_PERMISSIONS.map((p) => perm(p.action, p.subject)),
  perm('read', 'Agent'),
  perm('manage', 'Agent'),
  perm('read', 'McpServer'),
  perm('manage', 'McpServer'),
]);
const ONE_ROLE_META = { type: 'Role', count: 1, isArray: false, currentPage: null, totalPages: null };
const anError = (type: string) => ({ errors: { general: [expect.any(String)] }, meta: { type } });

const AUDITOR = {
  name: 'Auditor',
  description: 'Reads everything it created',
  permissions: [perm('read', 'Flow', 'isCreator'), perm('read', 'Execution')],
};

describe.each(DIALECTS)('roles (%s)', (dialect) => {
  let smtp: SmtpSink;
  let instance: TestInstance;
  let adminToken: string;
  beforeAll(async () => {
    smtp = await startSmtpSink();
  });
  afterAll(() => smtp.close());
  beforeEach(async () => {
    instance = await startTestInstance(dialect, { ...enterpriseEnv(), SMTP_URL: smtp.url });
    adminToken = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  const call = (method: string, path: string, body?: unknown) =>
    instance.request(method, path, { token: adminToken, ...(body !== undefined && { body }) });
  const roleNamed = async (name: string) => {
    const role = (await call('GET', '/admin/roles')).body.data.find((r: { name: string }) => r.name === name);
    if (!role) throw new Error(`no role named ${name}`);
    return role;
  };
  const createRole = async (body: unknown = AUDITOR) => {
    const res = await call('POST', '/admin/roles', body);
    if (res.status !== 201) throw new Error(`role creation failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };

  describe('GET /admin/roles and /admin/roles/:roleId', () => {
    it('lists the Admin and User roles with their permissions', async () => {
      const res = await call('GET', '/admin/roles');
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ type: 'Role', count: 2, isArray: true, currentPage: null, totalPages: null });
      expect(res.body.data.map((r: { name: string }) => r.name).sort()).toEqual(['Admin', 'User']);
      const admin = await roleNamed('Admin');
      const user = await roleNamed('User');
      expect(admin).toMatchObject({ isAdmin: true });
      expect(user).toMatchObject({ isAdmin: false });
      expect(admin.id).toMatch(UUID);
      expect(sorted(admin.permissions)).toEqual(ADMIN_PERMISSIONS);
      expect(sorted(user.permissions)).toEqual(USER_PERMISSIONS);
    });

    it('reads one role by id, and answers 404 for an unknown or malformed id', async () => {
      const user = await roleNamed('User');
      const res = await call('GET', `/admin/roles/${user.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: user, meta: ONE_ROLE_META });
      for (const id of [MISSING_ID, 'not-a-uuid']) {
        const missing = await call('GET', `/admin/roles/${id}`);
        expect(missing.status).toBe(404);
        expect(missing.body).toEqual(anError('NotFoundError'));
      }
    });
  });

  it('GET /admin/permissions/catalog describes actions, subjects and conditions', async () => {
    const res = await call('GET', '/admin/permissions/catalog');
    expect(res.status).toBe(200);
    expect(res.body.meta.type).toBe('Object');
    const { actions, subjects, conditions } = res.body.data;
    expect(actions.map((a: { key: string; subjects: string[] }) => [a.key, a.subjects])).toEqual([
      ['read', ['Flow', 'Connection', 'Execution', 'Agent', 'McpServer']],
      ['manage', ['Flow', 'Connection', 'Agent', 'McpServer']],
    ]);
    expect(subjects.map((s: { key: string }) => s.key)).toEqual([
      'Flow',
      'Connection',
      'Execution',
      'Agent',
      'McpServer',
    ]);
    expect(conditions.map((c: { key: string }) => c.key)).toEqual(['isCreator']);
  });

  describe('POST /admin/roles', () => {
    it('creates a role with its permissions', async () => {
      const res = await call('POST', '/admin/roles', AUDITOR);
      expect(res.status).toBe(201);
      expect(res.body.meta).toEqual(ONE_ROLE_META);
      const role = res.body.data;
      expect(role).toMatchObject({ name: AUDITOR.name, description: AUDITOR.description, isAdmin: false });
      expect(role.id).toMatch(UUID);
      expect(sorted(role.permissions)).toEqual(sorted(AUDITOR.permissions));
      expect((await call('GET', `/admin/roles/${role.id}`)).body.data).toEqual(role);
      expect((await call('GET', '/admin/roles')).body.meta.count).toBe(3);
    });

    it('refuses a name that is taken, whatever its case', async () => {
      await createRole();
      for (const name of [
        'User',
        AUDITOR.name,
        'user',
        AUDITOR.name.toUpperCase(),
        ` ${AUDITOR.name.toLowerCase()} `,
      ]) {
        const res = await call('POST', '/admin/roles', { ...AUDITOR, name });
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          errors: { name: ["'name' must be unique."] },
          meta: { type: 'UniqueViolationError' },
        });
      }
      expect((await call('GET', '/admin/roles')).body.meta.count).toBe(3);
    });

    it('refuses permissions outside the catalog, naming each offending index', async () => {
      const res = await call('POST', '/admin/roles', {
        name: 'Overreach',
        permissions: [
          perm('read', 'Flow'),
          perm('manage', 'Execution'),
          perm('read', 'Invoice'),
          perm('read', 'Connection', 'isOwner'),
        ],
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        errors: {
          'permissions.1': [expect.any(String)],
          'permissions.2': [expect.any(String)],
          'permissions.3': [expect.any(String)],
        },
        meta: { type: 'ValidationError' },
      });
      expect((await call('GET', '/admin/roles')).body.meta.count).toBe(2);
    });

    it('refuses a key the body does not define', async () => {
      const res = await call('POST', '/admin/roles', { ...AUDITOR, isAdmin: true });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: { isAdmin: ['is not allowed.'] }, meta: { type: 'ValidationError' } });
      expect((await call('GET', '/admin/roles')).body.meta.count).toBe(2);
    });
  });

  describe('PATCH /admin/roles/:roleId', () => {
    it('replaces name, description and permissions', async () => {
      const role = await createRole();
      const change = {
        name: 'Reviewer',
        description: 'Manages its own flows',
        permissions: [perm('manage', 'Flow', 'isCreator'), perm('read', 'Connection')],
      };
      const res = await call('PATCH', `/admin/roles/${role.id}`, change);
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual(ONE_ROLE_META);
      expect(res.body.data).toMatchObject({ id: role.id, name: change.name, description: change.description });
      expect(sorted(res.body.data.permissions)).toEqual(sorted(change.permissions));
      expect((await call('GET', `/admin/roles/${role.id}`)).body.data).toEqual(res.body.data);
    });

    it('clears the description when it is set to null', async () => {
      const role = await createRole();
      const res = await call('PATCH', `/admin/roles/${role.id}`, { ...AUDITOR, description: null });
      expect(res.status).toBe(200);
      expect(res.body.data.description).toBeNull();
      expect((await call('GET', `/admin/roles/${role.id}`)).body.data.description).toBeNull();
    });

    it('refuses a taken name, a permission outside the catalog and an unknown id', async () => {
      const role = await createRole();
      for (const name of ['User', 'uSER']) {
        const taken = await call('PATCH', `/admin/roles/${role.id}`, { ...AUDITOR, name });
        expect(taken.status).toBe(422);
        expect(taken.body).toEqual({
          errors: { name: ["'name' must be unique."] },
          meta: { type: 'UniqueViolationError' },
        });
      }
      const outside = await call('PATCH', `/admin/roles/${role.id}`, {
        ...AUDITOR,
        permissions: [perm('manage', 'Execution')],
      });
      expect(outside.status).toBe(422);
      expect(outside.body).toEqual({
        errors: { 'permissions.0': [expect.any(String)] },
        meta: { type: 'ValidationError' },
      });
      expect((await call('GET', `/admin/roles/${role.id}`)).body.data).toEqual(role);
      expect((await call('PATCH', `/admin/roles/${MISSING_ID}`, AUDITOR)).status).toBe(404);
      // Its own name in another case is a rename, not a clash.
      const recased = await call('PATCH', `/admin/roles/${role.id}`, { ...AUDITOR, name: AUDITOR.name.toUpperCase() });
      expect(recased.status).toBe(200);
      expect(recased.body.data.name).toBe(AUDITOR.name.toUpperCase());
    });

    it('refuses to change or delete the Admin role, which stays as it was', async () => {
      const admin = await roleNamed('Admin');
      const patched = await call('PATCH', `/admin/roles/${admin.id}`, { name: 'Boss', permissions: [] });
      expect(patched.status).toBe(403);
      expect(patched.body).toEqual(anError('ForbiddenError'));
      const deleted = await call('DELETE', `/admin/roles/${admin.id}`);
      expect(deleted.status).toBe(403);
      expect(deleted.body).toEqual(anError('ForbiddenError'));
      expect((await call('GET', `/admin/roles/${admin.id}`)).body.data).toEqual(admin);
    });

    it('takes effect at once for the users who hold the role', async () => {
      const role = await createRole();
      await enableRegistration(instance, adminToken);
      const bob = await registerAndSignIn(instance, BOB);
      expect((await call('PATCH', `/admin/users/${bob.id}`, { roleId: role.id })).status).toBe(200);
      const before = (await instance.request('GET', '/users/me', { token: bob.token })).body.data;
      expect(before.role).toMatchObject({ id: role.id, name: AUDITOR.name });
      expect(sorted(before.permissions)).toEqual(sorted(AUDITOR.permissions));

      const permissions = [perm('manage', 'Connection', 'isCreator'), perm('read', 'Execution', 'isCreator')];
      await call('PATCH', `/admin/roles/${role.id}`, { name: 'Operator', permissions });
      const after = (await instance.request('GET', '/users/me', { token: bob.token })).body.data;
      expect(after.role).toMatchObject({ id: role.id, name: 'Operator' });
      expect(sorted(after.permissions)).toEqual(sorted(permissions));
    });
  });

  describe('DELETE /admin/roles/:roleId', () => {
    it('refuses a role still held by a user, and deletes it once nobody holds it', async () => {
      const role = await createRole();
      const invited = await call('POST', '/admin/users', {
        fullName: 'Carol Auditor',
        email: 'carol@example.com',
        roleId: role.id,
      });
      expect(invited.status).toBe(201);
      const inUse = await call('DELETE', `/admin/roles/${role.id}`);
      expect(inUse.status).toBe(422);
      expect(inUse.body).toEqual(anError('RoleInUseError'));
      expect((await call('GET', `/admin/roles/${role.id}`)).status).toBe(200);

      const userRole = await roleNamed('User');
      const moved = await call('PATCH', `/admin/users/${invited.body.data.id}`, { roleId: userRole.id });
      expect(moved.status).toBe(200);
      const res = await call('DELETE', `/admin/roles/${role.id}`);
      expect(res.status).toBe(204);
      expect(res.body).toBeNull();
      expect((await call('GET', `/admin/roles/${role.id}`)).status).toBe(404);
      expect((await call('GET', '/admin/roles')).body.meta.count).toBe(2);
      expect((await call('DELETE', `/admin/roles/${role.id}`)).status).toBe(404);
    });
  });
});

describe.each(DIALECTS)('roles without a licence (%s)', (dialect) => {
  it('can still be read, so an administrator can pick one when inviting', async () => {
    const instance = await startTestInstance(dialect);
    try {
      const token = await installAndSignIn(instance);
      expect((await instance.request('GET', '/service/info')).body.data.isEnterprise).toBe(false);
      const list = await instance.request('GET', '/admin/roles', { token });
      expect(list.status).toBe(200);
      expect(list.body.data.map((r: { name: string; isAdmin: boolean }) => [r.name, r.isAdmin]).sort()).toEqual([
        ['Admin', true],
        ['User', false],
      ]);
      for (const role of list.body.data) {
        const one = await instance.request('GET', `/admin/roles/${role.id}`, { token });
        expect(one.status).toBe(200);
        expect(one.body.data).toEqual(role);
      }
    } finally {
      await instance.close();
    }
  });
});

describe.each(DIALECTS)('PATCH /admin/roles/:roleId is partial (%s)', (dialect) => {
  it('keeps what the body leaves out', async () => {
    const instance = await startTestInstance(dialect, enterpriseEnv());
    try {
      const token = await installAndSignIn(instance);
      const permissions = [{ action: 'read', subject: 'Flow', conditions: ['isCreator'] }];
      const created = await instance.request('POST', '/admin/roles', {
        token,
        body: { name: 'Viewer', description: 'Sees flows', permissions },
      });
      const renamed = await instance.request('PATCH', `/admin/roles/${created.body.data.id}`, {
        token,
        body: { name: 'Flow viewer' },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body.data).toMatchObject({ name: 'Flow viewer', description: 'Sees flows', permissions });
    } finally {
      await instance.close();
    }
  });
});
