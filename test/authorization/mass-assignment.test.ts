import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { NOTES_CREDENTIALS } from '../support/flow-apps.js';
import { type FlowWorld, startFlowWorld } from '../support/flow-fixtures.js';
import { signIn } from '../support/http.js';

/**
 * Fields a client may send but must never set: who owns a row, what role or status an account has,
 * ids and timestamps. Each is sent alone, so that one refused field cannot hide another taken.
 */
const FORBIDDEN = (ids: { adminId: string; adminRoleId: string; other: string }) => ({
  id: ids.other,
  userId: ids.adminId,
  ownerId: ids.adminId,
  roleId: ids.adminRoleId,
  role: { id: ids.adminRoleId, name: 'Admin', isAdmin: true },
  isAdmin: true,
  permissions: [{ action: 'manage', subject: 'Flow', conditions: [] }],
  status: 'active',
  active: true,
  verified: true,
  createdAt: '2000-01-01T00:00:00.000Z',
  updatedAt: '2000-01-01T00:00:00.000Z',
  __proto__: { isAdmin: true },
});

const OTHER_ID = '11111111-1111-4111-8111-111111111111';

describe.each(DIALECTS)('mass assignment and privilege escalation (%s)', (dialect) => {
  let world: FlowWorld;
  let bob: { id: string; token: string };
  let adminId: string;
  let adminRoleId: string;
  let userRoleId: string;
  const me = async (token: string) => (await world.instance.request('GET', '/users/me', { token })).body.data;

  beforeAll(async () => {
    world = await startFlowWorld(dialect);
    bob = { ...world.bob };
    const admin = await me(world.adminToken);
    adminId = admin.id;
    adminRoleId = admin.roleId;
    userRoleId = (await me(bob.token)).roleId;
  });
  afterAll(() => world.close());

  /**
   * Sends `body` plus each forbidden field in turn, and checks that the answer is a refusal (422)
   * or a success, and that what `read` sees afterwards did not move.
   */
  const sendEachField = async (
    method: string,
    path: () => Promise<string> | string,
    body: Record<string, unknown> | (() => Record<string, unknown>),
    read: () => Promise<unknown>,
    token = bob.token,
  ) => {
    const fields = FORBIDDEN({ adminId, adminRoleId, other: OTHER_ID });
    const outcomes: Record<string, number> = {};
    // `__proto__` in an object literal sets the prototype; JSON carries it as a key.
    for (const field of [...Object.keys(fields), '__proto__']) {
      const target = await path();
      const before = await read();
      const value = field === '__proto__' ? { isAdmin: true } : fields[field as keyof typeof fields];
      const base = typeof body === 'function' ? body() : body;
      const raw = `${JSON.stringify(base).slice(0, -1)}${Object.keys(base).length ? ',' : ''}${JSON.stringify(field)}:${JSON.stringify(value)}}`;
      const res = await world.instance.request(method, target, { token, body: raw });
      outcomes[field] = res.status;
      expect({ field, status: res.status }).toEqual({
        field,
        status: expect.toSatisfy((s: number) => s < 300 || s === 422),
      });
      expect({ field, after: await read() }).toEqual({ field, after: before });
    }
    return outcomes;
  };

  it("PATCH /users/:userId: a User's own account keeps its role, status and id", async () => {
    const { id } = bob;
    const read = async () => {
      const user = await me(bob.token);
      return { id: user.id, roleId: user.roleId, status: user.status, createdAt: user.createdAt };
    };
    await sendEachField('PATCH', () => `/users/${id}`, { fullName: 'Bob' }, read);
    expect((await read()).roleId).toBe(userRoleId);
  });

  it('PATCH /users/:userId/password: only the password changes', async () => {
    // A success signs out the other sessions; this one stays.
    const session = await signIn(world.instance, 'bob@example.com', 'bob-password');
    const read = async () => {
      const user = await me(session);
      return { roleId: user.roleId, status: user.status };
    };
    // A 422 leaves the password as it was; a success would change it, so each attempt sets the same one.
    const outcomes = await sendEachField(
      'PATCH',
      () => `/users/${bob.id}/password`,
      { currentPassword: 'bob-password', password: 'bob-password' },
      read,
      session,
    );
    bob = { ...bob, token: session };
    expect(Object.values(outcomes).every((s) => s === 422 || s === 200)).toBe(true);
  });

  it('POST /users: registration always makes an active User, never with a chosen id', async () => {
    let serial = 0;
    const registered: string[] = [];
    const fields = FORBIDDEN({ adminId, adminRoleId, other: OTHER_ID });
    for (const [field, value] of Object.entries(fields)) {
      serial += 1;
      const email = `mass-${serial}@example.com`;
      const res = await world.instance.request('POST', '/users', {
        body: { fullName: 'Mass', email, password: 'mass password', [field]: value },
      });
      expect({ field, ok: res.status === 201 || res.status === 422 }).toEqual({ field, ok: true });
      if (res.status !== 201) continue;
      const user = await me(await signIn(world.instance, email, 'mass password'));
      expect({ field, id: user.id, roleId: user.roleId, status: user.status }).toEqual({
        field,
        id: expect.not.stringMatching(OTHER_ID),
        roleId: userRoleId,
        status: 'active',
      });
      registered.push(user.id);
    }
    expect(new Set(registered).size).toBe(registered.length);
  });

  it('POST /users/invitation: accepting keeps the role the administrator chose', async () => {
    for (const [field, value] of Object.entries(FORBIDDEN({ adminId, adminRoleId, other: OTHER_ID }))) {
      const email = `invitee-${field.toLowerCase()}@example.com`;
      const invited = await world.call('POST', '/admin/users', world.adminToken, {
        fullName: 'Invitee',
        email,
        roleId: userRoleId,
      });
      const token = new URL(invited.acceptInvitationUrl).searchParams.get('token');
      const res = await world.instance.request('POST', '/users/invitation', {
        body: { token, password: 'invitee password', [field]: value },
      });
      expect({ field, ok: res.status === 204 || res.status === 422 }).toEqual({ field, ok: true });
      if (res.status !== 204) continue;
      const user = await me(await signIn(world.instance, email, 'invitee password'));
      expect({ field, id: user.id, roleId: user.roleId }).toEqual({ field, id: invited.id, roleId: userRoleId });
    }
  });

  it('connections: created and changed by a User stay theirs', async () => {
    const adminSees = async () =>
      (await world.instance.request('GET', '/apps/test-notes/connections', { token: world.adminToken })).body.data
        .map((c: { id: string }) => c.id)
        .sort();
    const bobSees = async () =>
      (await world.instance.request('GET', '/apps/test-notes/connections', { token: bob.token })).body.data.map(
        (c: { id: string; verified: boolean }) => ({ id: c.id, verified: c.verified }),
      );
    const before = await adminSees();
    await sendEachField(
      'POST',
      () => '/apps/test-notes/connections',
      { formattedData: NOTES_CREDENTIALS },
      async () => ({
        admin: await adminSees(),
        noneWithOtherId: (await bobSees()).every((c: { id: string }) => c.id !== OTHER_ID),
      }),
    );
    expect(await adminSees()).toEqual(before);

    const connectionId = await world.newNotesConnection(bob.token);
    await sendEachField(
      'PATCH',
      () => `/connections/${connectionId}`,
      { formattedData: NOTES_CREDENTIALS },
      async () => ({
        admin: await adminSees(),
        bob: await bobSees(),
      }),
    );
  });

  it('flows, steps and folders: a User cannot hand them to another owner or set what the server decides', async () => {
    const flow = await world.newFlow(bob.token);
    const readFlow = async () => {
      const data = (await world.instance.request('GET', `/flows/${flow.id}`, { token: bob.token })).body.data;
      return {
        id: data.id,
        userId: data.userId,
        active: data.active,
        status: data.status,
        createdAt: data.createdAt,
        steps: data.steps.map((s: { id: string; type: string; status: string }) => [s.id, s.type, s.status]),
      };
    };
    await sendEachField('PATCH', () => `/flows/${flow.id}`, { name: 'Mine' }, readFlow);
    await sendEachField('PATCH', () => `/flows/${flow.id}/status`, { active: false }, readFlow);
    await sendEachField('PATCH', () => `/steps/${flow.actionId}`, { name: 'Named' }, readFlow);
    expect((await readFlow()).userId).toBe(bob.id);

    const folders = async () =>
      (await world.instance.request('GET', '/folders', { token: world.adminToken })).body.data.map(
        (f: { id: string }) => f.id,
      );
    let serial = 0;
    await sendEachField(
      'POST',
      () => '/folders',
      () => ({ name: `Folder ${++serial}` }),
      folders,
    );
  });

  it('forms: a User cannot hand one to another owner, choose its id or set its times', async () => {
    const adminForms = async () =>
      (await world.instance.request('GET', '/forms', { token: world.adminToken })).body.data.map(
        (f: { id: string }) => f.id,
      );
    const bobForms = async () =>
      (await world.instance.request('GET', '/forms', { token: bob.token })).body.data.map(
        (f: { id: string; createdAt: number }) => [f.id, f.createdAt],
      );
    let serial = 0;
    await sendEachField(
      'POST',
      () => '/forms',
      () => ({ name: `Form ${++serial}` }),
      async () => ({
        admin: await adminForms(),
        noneWithOtherId: (await bobForms()).every(([id]: [string]) => id !== OTHER_ID),
      }),
    );
    const { id: formId } = await world.call('POST', '/forms', bob.token, { name: 'Kept' });
    await sendEachField(
      'PATCH',
      () => `/forms/${formId}`,
      { name: 'Mine' },
      async () => ({
        admin: await adminForms(),
        bob: await bobForms(),
      }),
    );
  });

  it('GraphQL updateUser: the input has no role, status or owner to set', async () => {
    for (const field of ['roleId', 'role', 'status', 'isAdmin', 'userId']) {
      const res = await world.instance.request('POST', '/graphql', {
        mount: '',
        token: bob.token,
        body: {
          query: 'mutation ($input: UpdateUserInput) { updateUser(input: $input) { id } }',
          variables: { input: { id: bob.id, fullName: 'Bob', [field]: adminRoleId } },
        },
      });
      expect(res.body.errors?.length ?? 0).toBeGreaterThan(0);
    }
    expect((await me(bob.token)).roleId).toBe(userRoleId);
  });

  it('a User reaches no administration of their own account or role', async () => {
    const { token, id } = bob;
    const attempts = [
      ['PATCH', `/admin/users/${id}`, { roleId: adminRoleId }],
      ['PATCH', `/admin/roles/${userRoleId}`, { name: 'User', permissions: [{ action: 'manage', subject: 'Flow' }] }],
      ['POST', '/admin/roles', { name: 'Mine', permissions: [] }],
      ['POST', '/admin/users', { fullName: 'Me too', email: 'me2@example.com', roleId: adminRoleId }],
      ['POST', '/admin/api-tokens', undefined],
      ['PATCH', '/admin/config', { registrationEnabled: true }],
      ['POST', '/installation/users', { email: 'late@example.com', password: 'late password', fullName: 'Late' }],
    ] as const;
    const statuses = [];
    for (const [method, path, body] of attempts) {
      statuses.push((await world.instance.request(method, path, { token, ...(body && { body }) })).status);
    }
    expect(statuses).toEqual([403, 403, 403, 403, 403, 403, 403]);
    expect((await me(token)).roleId).toBe(userRoleId);
  });

  it('an administrator cannot set, through their own routes, what no route sets', async () => {
    const invited = await world.call('POST', '/admin/users', world.adminToken, {
      fullName: 'Pending',
      email: 'pending@example.com',
      roleId: userRoleId,
    });
    const read = async () => {
      const user = (await world.instance.request('GET', `/admin/users/${invited.id}`, { token: world.adminToken })).body
        .data;
      return { id: user.id, status: user.status, createdAt: user.createdAt };
    };
    const outcomes = await sendEachField(
      'PATCH',
      () => `/admin/users/${invited.id}`,
      { fullName: 'Pending' },
      read,
      world.adminToken,
    );
    // Only the role is the administrator's to change here.
    expect(outcomes.roleId).toBe(200);
    expect((await read()).status).toBe('invited');
  });
});
