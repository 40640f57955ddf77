import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, localPostgres } from '../support/databases.js';
import { enterpriseEnv } from '../support/enterprise.js';
import {
  BOB,
  enableRegistration,
  installAndSignIn,
  registerAndSignIn,
  startTestInstance,
  type TestInstance,
} from '../support/http.js';
import { rawQuery } from '../support/raw-sql.js';

const pgUrl = process.env.TEST_DATABASE_URL;

describe.each(DIALECTS)('connections (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  beforeEach(async () => {
    instance = await startTestInstance(
      dialect,
      { ...enterpriseEnv(), ALLOW_PRIVATE_NETWORKS: 'true' },
      {},
      { onDisk: true },
    );
    token = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  const create = (formattedData: Record<string, unknown>, as = token) =>
    instance.request('POST', '/apps/postgresql/connections', { token: as, body: { formattedData } });

  it('creates an unverified connection, shows no credential and stores them sealed', async () => {
    const res = await create(localPostgres());
    expect(res.status).toBe(201);
    expect(res.body.meta.type).toBe('Connection');
    expect(res.body.data).toMatchObject({
      key: 'postgresql',
      appAuthClientId: null,
      formattedData: { screenName: null },
      verified: false,
    });
    expect(JSON.stringify(res.body)).not.toContain(localPostgres().password);

    const [row] = await rawQuery(instance.database.url, 'select credentials from connections where id = ?', [
      res.body.data.id,
    ]);
    expect(row.credentials).toMatch(/^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/);
    expect(row.credentials).not.toContain(localPostgres().password);
    expect(row.credentials).not.toContain(localPostgres().host);
  });

  it('validates the credentials against the app’s fields', async () => {
    const res = await create({ host: '127.0.0.1', port: 'five' });
    expect(res.status).toBe(422);
    expect(res.body.meta.type).toBe('ValidationError');
    expect(Object.keys(res.body.errors)).toEqual(
      expect.arrayContaining(['formattedData.port', 'formattedData.database']),
    );
    const both = await instance.request('POST', '/apps/postgresql/connections', { token, body: {} });
    expect(both.status).toBe(422);
    expect(
      (await instance.request('POST', '/apps/nope/connections', { token, body: { formattedData: {} } })).status,
    ).toBe(404);
  });

  it.runIf(pgUrl)(
    'verifies against the real server, lists it, and refuses bad credentials with the reason',
    async () => {
      const { id } = (await create(localPostgres())).body.data;
      const verified = await instance.request('POST', `/connections/${id}/verify`, { token });
      expect(verified.status).toBe(200);
      expect(verified.body.data.verified).toBe(true);
      expect(verified.body.data.formattedData.screenName).toContain(localPostgres().database);
      const listed = await instance.request('GET', '/apps/postgresql/connections', { token });
      expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([id]);

      const patched = await instance.request('PATCH', `/connections/${id}`, {
        token,
        body: { formattedData: { database: 'no_such_database_here' } },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.data.verified).toBe(false);
      const refused = await instance.request('POST', `/connections/${id}/verify`, { token });
      expect(refused.status).toBe(422);
      expect(refused.body.meta.type).toBe('ConnectionVerificationError');
      expect(refused.body.errors.general[0]).toContain('no_such_database_here');
      const tested = await instance.request('POST', `/connections/${id}/test`, { token });
      expect(tested.status).toBe(200);
      expect(tested.body.data.verified).toBe(false);
      // Verified once, it is no draft: it stays listed, unverified, to be reconnected.
      const relisted = (await instance.request('GET', '/apps/postgresql/connections', { token })).body.data;
      expect(relisted.map((c: { id: string; verified: boolean }) => [c.id, c.verified])).toEqual([[id, false]]);
    },
  );

  it('resets to the display name alone and deletes', async () => {
    const { id } = (await create(localPostgres())).body.data;
    const reset = await instance.request('POST', `/connections/${id}/reset`, { token });
    expect(reset.status).toBe(200);
    expect(reset.body.data.verified).toBe(false);
    // Without credentials the check cannot succeed.
    expect((await instance.request('POST', `/connections/${id}/verify`, { token })).status).toBe(422);
    expect((await instance.request('DELETE', `/connections/${id}`, { token })).status).toBe(204);
    expect((await instance.request('POST', `/connections/${id}/test`, { token })).status).toBe(404);
    expect((await instance.request('DELETE', `/connections/${id}`, { token })).status).toBe(404);
  });

  it('keeps users out of each other’s connections', async () => {
    await enableRegistration(instance, token);
    const bob = await registerAndSignIn(instance, BOB);
    const { id } = (await create(localPostgres())).body.data;
    for (const [method, path] of [
      ['PATCH', `/connections/${id}`],
      ['DELETE', `/connections/${id}`],
      ['POST', `/connections/${id}/verify`],
      ['POST', `/connections/${id}/reset`],
      ['GET', `/connections/${id}/flows`],
    ] as const) {
      const body = method === 'GET' ? undefined : { formattedData: {} };
      const res = await instance.request(method, path, { token: bob.token, ...(body && { body }) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await instance.request('GET', '/apps/postgresql/connections', { token: bob.token })).body.data).toEqual([]);
    const apps = await instance.request('GET', `/users/${bob.id}/apps`, { token: bob.token });
    expect(apps.body.data).toEqual([]);
  });

  it('counts the caller’s connections per app', async () => {
    await create(localPostgres());
    await create(localPostgres());
    const me = (await instance.request('GET', '/users/me', { token })).body.data;
    const apps = await instance.request('GET', `/users/${me.id}/apps`, { token });
    expect(apps.body.data).toEqual([
      { key: 'postgresql', name: expect.any(String), iconUrl: expect.any(String), connectionCount: 2, flowCount: 0 },
    ]);
  });

  it('obeys the administrator’s app configuration', async () => {
    const config = await instance.request('POST', '/admin/apps/postgresql/config', { token, body: { disabled: true } });
    expect(config.status).toBe(201);
    expect(config.body.data).toMatchObject({ key: 'postgresql', disabled: true, useOnlyPredefinedAuthClients: false });
    const again = await instance.request('POST', '/admin/apps/postgresql/config', { token, body: {} });
    expect(again.status).toBe(422);
    expect(again.body.meta.type).toBe('UniqueViolationError');
    expect((await create(localPostgres())).status).toBe(403);
    await instance.request('PATCH', '/admin/apps/postgresql/config', { token, body: { disabled: false } });
    expect((await create(localPostgres())).status).toBe(201);
    expect((await instance.request('GET', '/apps/postgresql/config', { token })).body.data.disabled).toBe(false);
    expect((await instance.request('GET', '/apps/smtp/config', { token })).status).toBe(404);
    expect((await instance.request('PATCH', '/admin/apps/smtp/config', { token, body: {} })).status).toBe(404);
  });
});
