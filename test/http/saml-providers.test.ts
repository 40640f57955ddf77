import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../support/clock.js';
import { DIALECTS } from '../support/databases.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { rawQuery } from '../support/raw-sql.js';
import { redirectOf, SP_ISSUER, samlBrowser, samlProviderBody } from '../support/saml.js';
import { TestIdentityProvider } from '../support/saml-idp.js';

const MISSING = '00000000-0000-4000-8000-000000000000';
const PROVIDERS = '/admin/saml-auth-providers';
const LOGIN_URL = `http://conveyor.test/login/saml/${encodeURIComponent(SP_ISSUER)}`;

describe.each(DIALECTS)('SAML providers (%s)', (dialect) => {
  let idp: TestIdentityProvider;
  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
  });

  let instance: TestInstance;
  let token: string;
  let userRoleId: string;
  let adminRoleId: string;
  beforeEach(async () => {
    instance = await startTestInstance(dialect, enterpriseEnv());
    token = await installAndSignIn(instance);
    const roles = (await instance.request('GET', '/admin/roles', { token })).body.data;
    userRoleId = roles.find((r: { name: string }) => r.name === 'User').id;
    adminRoleId = roles.find((r: { isAdmin: boolean }) => r.isAdmin).id;
  });
  afterEach(() => instance.close());

  const create = (overrides: object = {}) =>
    instance.request('POST', PROVIDERS, { token, body: samlProviderBody(idp, userRoleId, overrides) });

  it('creates, lists, reads and changes a provider, certificate included', async () => {
    const created = await create();
    expect(created.status).toBe(201);
    expect(created.body.meta).toEqual({
      type: 'SamlAuthProvider',
      count: 1,
      isArray: false,
      currentPage: null,
      totalPages: null,
    });
    const provider = created.body.data;
    expect(provider).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Test IdP',
      certificate: expect.stringContaining('-----BEGIN CERTIFICATE-----'),
      signatureAlgorithm: 'sha256',
      issuer: SP_ISSUER,
      entryPoint: idp.entryPoint,
      firstnameAttributeName: 'firstName',
      surnameAttributeName: 'lastName',
      emailAttributeName: 'email',
      roleAttributeName: 'groups',
      defaultRoleId: userRoleId,
      active: true,
      loginUrl: LOGIN_URL,
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
    });

    const listed = await instance.request('GET', PROVIDERS, { token });
    expect(listed.body).toMatchObject({
      data: [provider],
      meta: { type: 'SamlAuthProvider', count: 1, isArray: true },
    });
    expect((await instance.request('GET', `${PROVIDERS}/${provider.id}`, { token })).body.data).toEqual(provider);

    const changed = await instance.request('PATCH', `${PROVIDERS}/${provider.id}`, {
      token,
      body: { name: 'Renamed', signatureAlgorithm: 'sha512', active: false },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      ...provider,
      name: 'Renamed',
      signatureAlgorithm: 'sha512',
      active: false,
      updatedAt: expect.any(Number),
    });
  });

  it('answers 404 for an unknown or malformed provider id', async () => {
    for (const path of [
      `${PROVIDERS}/${MISSING}`,
      `${PROVIDERS}/not-a-uuid`,
      `${PROVIDERS}/${MISSING}/role-mappings`,
    ]) {
      const res = await instance.request('GET', path, { token });
      expect(res.status).toBe(404);
      expect(res.body.meta.type).toBe('NotFoundError');
    }
    expect((await instance.request('PATCH', `${PROVIDERS}/${MISSING}`, { token, body: { name: 'x' } })).status).toBe(
      404,
    );
    expect((await instance.request('PATCH', `${PROVIDERS}/${MISSING}/role-mappings`, { token, body: [] })).status).toBe(
      404,
    );
  });

  it('validates every field', async () => {
    const missing = await instance.request('POST', PROVIDERS, { token, body: { name: 'Only a name' } });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual([
      'certificate',
      'defaultRoleId',
      'emailAttributeName',
      'entryPoint',
      'firstnameAttributeName',
      'issuer',
      'roleAttributeName',
      'signatureAlgorithm',
      'surnameAttributeName',
    ]);

    const bad = await create({
      signatureAlgorithm: 'md5',
      entryPoint: 'ftp://idp.test',
      defaultRoleId: 'x',
      active: 'yes',
      extra: 1,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.meta.type).toBe('ValidationError');
    expect(Object.keys(bad.body.errors).sort()).toEqual([
      'active',
      'defaultRoleId',
      'entryPoint',
      'extra',
      'signatureAlgorithm',
    ]);
    expect(bad.body.errors.signatureAlgorithm).toEqual(['must be one of sha1, sha256, sha512.']);

    const certificate = await create({ certificate: 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA' });
    expect(certificate.status).toBe(422);
    expect(certificate.body.errors).toEqual({ certificate: ['must be an X.509 certificate (PEM or base64).'] });

    const role = await create({ defaultRoleId: MISSING });
    expect(role.status).toBe(422);
    expect(role.body.errors).toEqual({ defaultRoleId: ['does not exist.'] });

    expect((await instance.request('GET', PROVIDERS, { token })).body.data).toEqual([]);
  });

  it('refuses a second provider with the same issuer', async () => {
    expect((await create()).status).toBe(201);
    const again = await create({ name: 'Twin' });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({
      errors: { issuer: ["'issuer' must be unique."] },
      meta: { type: 'UniqueViolationError' },
    });
  });

  it('shows the login page the active providers only, without their configuration', async () => {
    const active = (await create()).body.data;
    await create({ issuer: 'https://conveyor.test/inactive', name: 'Dormant', active: false });
    const res = await instance.request('GET', '/saml-auth-providers');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [{ id: active.id, name: 'Test IdP', loginUrl: LOGIN_URL, issuer: SP_ISSUER }],
      meta: { type: 'SamlAuthProvider', count: 1, isArray: true, currentPage: null, totalPages: null },
    });
  });

  describe('role mappings', () => {
    let path: string;
    let customRoleId: string;
    beforeEach(async () => {
      const provider = (await create()).body.data;
      path = `${PROVIDERS}/${provider.id}/role-mappings`;
      const custom = await instance.request('POST', '/admin/roles', { token, body: { name: 'Operators' } });
      customRoleId = custom.body.data.id;
    });

    it('are replaced as a whole, in the order given', async () => {
      expect((await instance.request('GET', path, { token })).body).toMatchObject({
        data: [],
        meta: { type: 'RoleMapping', count: 0 },
      });
      const first = await instance.request('PATCH', path, {
        token,
        body: [
          { remoteRoleName: 'ops', roleId: customRoleId },
          { remoteRoleName: 'admins', roleId: adminRoleId },
        ],
      });
      expect(first.status).toBe(200);
      expect(first.body.meta).toMatchObject({ type: 'RoleMapping', count: 2, isArray: true });
      expect(
        first.body.data.map((m: { remoteRoleName: string; roleId: string }) => [m.remoteRoleName, m.roleId]),
      ).toEqual([
        ['ops', customRoleId],
        ['admins', adminRoleId],
      ]);
      expect(first.body.data[0]).toEqual({
        id: expect.any(String),
        samlAuthProviderId: path.split('/')[3],
        roleId: customRoleId,
        remoteRoleName: 'ops',
      });

      const second = await instance.request('PATCH', path, {
        token,
        body: [{ remoteRoleName: 'staff', roleId: userRoleId }],
      });
      expect(second.body.data.map((m: { remoteRoleName: string }) => m.remoteRoleName)).toEqual(['staff']);
      expect((await instance.request('GET', path, { token })).body.data).toEqual(second.body.data);
      expect((await instance.request('PATCH', path, { token, body: [] })).body.data).toEqual([]);
    });

    it('refuse a repeated remote role name or an unknown role, and keep what was there', async () => {
      const kept = (
        await instance.request('PATCH', path, { token, body: [{ remoteRoleName: 'ops', roleId: customRoleId }] })
      ).body.data;
      const repeated = await instance.request('PATCH', path, {
        token,
        body: [
          { remoteRoleName: 'ops', roleId: customRoleId },
          { remoteRoleName: 'admins', roleId: adminRoleId },
          { remoteRoleName: ' ops ', roleId: userRoleId },
        ],
      });
      expect(repeated.status).toBe(422);
      expect(repeated.body).toEqual({
        errors: { '2.remoteRoleName': ['repeats a remote role name given before.'] },
        meta: { type: 'ValidationError' },
      });
      const unknown = await instance.request('PATCH', path, {
        token,
        body: [
          { remoteRoleName: 'new', roleId: userRoleId },
          { remoteRoleName: 'ghosts', roleId: MISSING },
        ],
      });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors).toEqual({ '1.roleId': ['does not exist.'] });
      const malformed = await instance.request('PATCH', path, {
        token,
        body: { remoteRoleName: 'x', roleId: userRoleId },
      });
      expect(malformed.status).toBe(422);
      const empty = await instance.request('PATCH', path, {
        token,
        body: [{ remoteRoleName: '', roleId: userRoleId }],
      });
      expect(empty.body.errors).toEqual({ '0.remoteRoleName': ['is required.'] });
      expect((await instance.request('GET', path, { token })).body.data).toEqual(kept);
    });

    it('go with a deleted role, while a default role cannot be deleted', async () => {
      await instance.request('PATCH', path, { token, body: [{ remoteRoleName: 'ops', roleId: customRoleId }] });
      expect((await instance.request('DELETE', `/admin/roles/${customRoleId}`, { token })).status).toBe(204);
      expect((await instance.request('GET', path, { token })).body.data).toEqual([]);

      const inUse = await instance.request('DELETE', `/admin/roles/${userRoleId}`, { token });
      expect(inUse.status).toBe(422);
      expect(inUse.body.meta.type).toBe('RoleInUseError');
      const dedicated = await instance.request('POST', '/admin/roles', { token, body: { name: 'SSO users' } });
      await instance.request('PATCH', `${PROVIDERS}/${path.split('/')[3]}`, {
        token,
        body: { defaultRoleId: dedicated.body.data.id },
      });
      const refused = await instance.request('DELETE', `/admin/roles/${dedicated.body.data.id}`, { token });
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({
        errors: { general: ['The role is the default role of 1 SAML provider(s); change their default first.'] },
        meta: { type: 'RoleInUseError' },
      });
    });
  });
});

describe.each(DIALECTS)('SAML sign-in records (%s)', (dialect) => {
  let instance: TestInstance;
  afterEach(() => instance.close());

  it('are pruned once expired: requests, used assertions, then sessions with their token', async () => {
    const idp = await TestIdentityProvider.start();
    const clock = new ManualClock(new Date());
    instance = await startTestInstance(dialect, enterpriseEnv(), { clock }, { onDisk: true });
    const token = await installAndSignIn(instance);
    const roles = (await instance.request('GET', '/admin/roles', { token })).body.data;
    const roleId = roles.find((r: { name: string }) => r.name === 'User').id;
    await instance.request('POST', PROVIDERS, { token, body: samlProviderBody(idp, roleId) });
    const browser = samlBrowser(instance);
    const { requestId } = await browser.start();
    const signedIn = redirectOf(
      await browser.post(
        idp.response({
          inResponseTo: requestId,
          audience: SP_ISSUER,
          nameId: 'n',
          attributes: { email: ['n@example.com'] },
        }),
      ),
    );
    expect(signedIn.token).toBeTruthy();
    await browser.start(); // left waiting

    const rows = async () => {
      const count = async (table: string) =>
        Number((await rawQuery(instance.database.url, `select count(*) as n from ${table}`))[0].n);
      return {
        requests: await count('saml_requests'),
        assertions: await count('saml_used_assertions'),
        sessions: await count('saml_sessions'),
      };
    };
    const prune = () => instance.conveyor.useCases.engine.pruneSignInRecords();
    expect(await rows()).toEqual({ requests: 1, assertions: 1, sessions: 1 });
    expect(await prune()).toBe(0);
    clock.advance(16 * 60_000);
    expect(await prune()).toBe(2);
    expect(await rows()).toEqual({ requests: 0, assertions: 0, sessions: 1 });
    clock.advance(14 * 24 * 60 * 60_000);
    expect(await prune()).toBe(1);
    expect(await rows()).toEqual({ requests: 0, assertions: 0, sessions: 0 });
  });
});

describe.each(DIALECTS)('SAML providers without a licence (%s)', (dialect) => {
  let instance: TestInstance;
  afterEach(() => instance.close());

  it('answer 403 EnterpriseLicenseRequiredError, the public list included', async () => {
    instance = await startTestInstance(dialect);
    const token = await installAndSignIn(instance);
    for (const [path, options] of [
      ['/saml-auth-providers', {}],
      [PROVIDERS, { token }],
    ] as const) {
      const res = await instance.request('GET', path, options);
      expect(res.status).toBe(403);
      expect(res.body.meta.type).toBe('EnterpriseLicenseRequiredError');
    }
  });
});
