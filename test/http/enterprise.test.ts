import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../support/clock.js';
import { DIALECTS } from '../support/databases.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

const DAY = 24 * 60 * 60_000;

describe.each(DIALECTS)('enterprise licence (%s)', (dialect) => {
  let instance: TestInstance;
  afterEach(() => instance.close());

  it('reports no licence and refuses enterprise routes with 403, while user administration works', async () => {
    instance = await startTestInstance(dialect);
    const token = await installAndSignIn(instance);
    expect((await instance.request('GET', '/service/license')).body.data).toEqual({
      id: null,
      name: null,
      expireAt: null,
      verified: false,
    });
    expect((await instance.request('GET', '/service/info')).body.data.isEnterprise).toBe(false);
    const ee = await instance.request('POST', '/admin/api-tokens', { token });
    expect(ee.status).toBe(403);
    expect(ee.body).toEqual({
      errors: { general: ['This feature needs a valid enterprise licence.'] },
      meta: { type: 'EnterpriseLicenseRequiredError' },
    });
    expect((await instance.request('GET', '/admin/users', { token })).status).toBe(200);
  });

  it('verifies a signed licence and turns enterprise routes on', async () => {
    const expireAt = new Date('2030-01-01T00:00:00.000Z');
    instance = await startTestInstance(dialect, enterpriseEnv(expireAt));
    const token = await installAndSignIn(instance);
    const license = (await instance.request('GET', '/service/license')).body.data;
    expect(license).toMatchObject({ name: 'Test Licensee', expireAt: expireAt.getTime(), verified: true });
    expect(license.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await instance.request('GET', '/service/info')).body.data.isEnterprise).toBe(true);
    expect((await instance.request('POST', '/admin/api-tokens', { token })).status).toBe(201);
  });

  it('stops counting a licence the moment it expires, without a restart', async () => {
    const clock = new ManualClock(new Date());
    instance = await startTestInstance(dialect, enterpriseEnv(new Date(clock.now().getTime() + DAY)), { clock });
    const token = await installAndSignIn(instance);
    expect((await instance.request('GET', '/admin/api-tokens', { token })).status).toBe(200);
    clock.advance(DAY + 1);
    expect((await instance.request('GET', '/admin/api-tokens', { token })).status).toBe(403);
    expect((await instance.request('GET', '/service/license')).body.data.verified).toBe(false);
    expect((await instance.request('GET', '/service/info')).body.data.isEnterprise).toBe(false);
  });

  it('ignores a licence signed by another key', async () => {
    const mine = enterpriseEnv();
    const theirs = enterpriseEnv();
    instance = await startTestInstance(dialect, {
      LICENSE_KEY: theirs.LICENSE_KEY ?? '',
      LICENSE_PUBLIC_KEY: mine.LICENSE_PUBLIC_KEY ?? '',
    });
    expect((await instance.request('GET', '/service/license')).body.data.verified).toBe(false);
  });
});

describe.each(DIALECTS)('API tokens (%s)', (dialect) => {
  let instance: TestInstance;
  afterEach(() => instance.close());

  it('are shown once, listed masked, act as their admin and stop working when deleted', async () => {
    instance = await startTestInstance(dialect, enterpriseEnv());
    const adminToken = await installAndSignIn(instance);
    const created = await instance.request('POST', '/admin/api-tokens', { token: adminToken });
    expect(created.status).toBe(201);
    expect(created.body.meta.type).toBe('ApiToken');
    const { id, token, createdAt } = created.body.data;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Number.isSafeInteger(createdAt)).toBe(true);

    const listed = await instance.request('GET', '/admin/api-tokens', { token: adminToken });
    expect(listed.body.data).toEqual([
      { id, token: `${token.slice(0, 4)}...${token.slice(-4)}`, userId: expect.any(String), createdAt },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(token);

    const me = await instance.request('GET', '/users/me', { headers: { 'x-api-token': token } });
    expect(me.status).toBe(200);
    expect(me.body.data.role.isAdmin).toBe(true);
    expect((await instance.request('GET', '/admin/users', { headers: { 'x-api-token': token } })).status).toBe(200);
    // An API token is not a session token.
    expect((await instance.request('GET', '/users/me', { token })).status).toBe(401);

    expect((await instance.request('DELETE', `/admin/api-tokens/${id}`, { token: adminToken })).status).toBe(204);
    expect((await instance.request('GET', '/users/me', { headers: { 'x-api-token': token } })).status).toBe(401);
    expect((await instance.request('DELETE', `/admin/api-tokens/${id}`, { token: adminToken })).status).toBe(404);
  });

  it('lose administration when their admin is demoted, and everything when the admin is deleted', async () => {
    instance = await startTestInstance(dialect, enterpriseEnv());
    const adminToken = await installAndSignIn(instance);
    const roles = (await instance.request('GET', '/admin/roles', { token: adminToken })).body.data;
    const adminRole = roles.find((r: { isAdmin: boolean }) => r.isAdmin);
    const userRole = roles.find((r: { name: string }) => r.name === 'User');
    // A second admin creates the token.
    const invited = await instance.request('POST', '/admin/users', {
      token: adminToken,
      body: { fullName: 'Grace', email: 'grace@example.com', roleId: adminRole.id },
    });
    const invitationToken = new URL(invited.body.data.acceptInvitationUrl).searchParams.get('token');
    await instance.request('POST', '/users/invitation', {
      body: { token: invitationToken, password: 'grace password' },
    });
    const grace = (
      await instance.request('POST', '/access-tokens', {
        body: { email: 'grace@example.com', password: 'grace password' },
      })
    ).body.data.token;
    const apiToken = (await instance.request('POST', '/admin/api-tokens', { token: grace })).body.data.token;
    const asToken = { headers: { 'x-api-token': apiToken } };
    expect((await instance.request('GET', '/admin/users', asToken)).status).toBe(200);

    const graceId = invited.body.data.id;
    await instance.request('PATCH', `/admin/users/${graceId}`, { token: adminToken, body: { roleId: userRole.id } });
    expect((await instance.request('GET', '/admin/users', asToken)).status).toBe(403);
    expect((await instance.request('GET', '/users/me', asToken)).body.data.role.name).toBe('User');

    await instance.request('DELETE', `/admin/users/${graceId}`, { token: adminToken });
    expect((await instance.request('GET', '/users/me', asToken)).status).toBe(401);
    expect((await instance.request('GET', '/admin/api-tokens', { token: adminToken })).body.data).toEqual([]);
  });
});

describe.each(DIALECTS)('instance configuration (%s)', (dialect) => {
  let instance: TestInstance;
  afterEach(() => instance.close());

  it('is public to read and changed by an admin with a licence', async () => {
    instance = await startTestInstance(dialect, enterpriseEnv());
    const token = await installAndSignIn(instance);
    const initial = await instance.request('GET', '/service/config');
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({
      data: {
        title: null,
        primaryMainColor: null,
        logoSvgData: null,
        footerLinks: [],
        enableTemplates: false,
        registrationEnabled: false,
        installationCompleted: true,
      },
      meta: { type: 'Config' },
    });

    const changes = {
      title: 'Acme Automations',
      primaryMainColor: '#0059f7',
      primaryDarkColor: '#001f52',
      primaryLightColor: '#4286ff',
      logoSvgData: '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>',
      footerLinks: [{ label: 'Privacy', url: 'https://acme.example/privacy' }],
      enableTemplates: true,
      registrationEnabled: true,
    };
    const patched = await instance.request('PATCH', '/admin/config', { token, body: changes });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject(changes);
    expect((await instance.request('GET', '/service/config')).body.data).toMatchObject(changes);
    expect((await instance.request('GET', '/service/info')).body.data.registrationEnabled).toBe(true);

    // A partial change keeps the rest; null clears a field.
    await instance.request('PATCH', '/admin/config', { token, body: { title: null } });
    const after = (await instance.request('GET', '/service/config')).body.data;
    expect(after.title).toBeNull();
    expect(after.primaryMainColor).toBe('#0059f7');
  });

  it('refuses bad values, scripts in the logo and unknown keys', async () => {
    instance = await startTestInstance(dialect, enterpriseEnv());
    const token = await installAndSignIn(instance);
    const bad = await instance.request('PATCH', '/admin/config', {
      token,
      body: {
        primaryMainColor: 'blue',
        footerLinks: [{ label: 'x', url: 'javascript:alert(1)' }],
        logoSvgData: '<svg onload="alert(1)"></svg>',
      },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['footerLinks.0.url', 'logoSvgData', 'primaryMainColor']);
    const unknown = await instance.request('PATCH', '/admin/config', { token, body: { installationCompleted: false } });
    expect(unknown.status).toBe(422);
    expect((await instance.request('GET', '/service/config')).body.data.primaryMainColor).toBeNull();
  });
});
