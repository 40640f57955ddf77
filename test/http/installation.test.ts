import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { ADMIN, signIn, startTestInstance, type TestInstance } from '../support/http.js';

describe.each(DIALECTS)('POST /installation/users (%s)', (dialect) => {
  let instance: TestInstance;
  beforeEach(async () => {
    instance = await startTestInstance(dialect);
  });
  afterEach(() => instance.close());

  it('creates the first admin, completes installation, then refuses with 403', async () => {
    const res = await instance.request('POST', '/installation/users', { body: ADMIN });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();

    const info = await instance.request('GET', '/service/info');
    expect(info.body.data.installationCompleted).toBe(true);

    const me = await instance.request('GET', '/users/me', {
      token: await signIn(instance, ADMIN.email, ADMIN.password),
    });
    expect(me.body.data).toMatchObject({ email: ADMIN.email, fullName: ADMIN.fullName, status: 'active' });
    expect(me.body.data.role).toMatchObject({ name: 'Admin', isAdmin: true });

    const again = await instance.request('POST', '/installation/users', {
      body: { email: 'mallory@example.com', password: 'password123', fullName: 'Mallory' },
    });
    expect(again.status).toBe(403);
    expect(again.body).toEqual({
      errors: { general: ['Installation is already completed.'] },
      meta: { type: 'ForbiddenError' },
    });
    const mallory = await instance.request('POST', '/access-tokens', {
      body: { email: 'mallory@example.com', password: 'password123' },
    });
    expect(mallory.status).toBe(422);
  });

  it('creates exactly one admin when many installations race', async () => {
    const attempts = Array.from({ length: 8 }, (_, i) =>
      instance.request('POST', '/installation/users', {
        body: { email: `admin${i}@example.com`, password: 'password123', fullName: `Admin ${i}` },
      }),
    );
    const statuses = (await Promise.all(attempts)).map((r) => r.status).sort();
    expect(statuses).toEqual([204, 403, 403, 403, 403, 403, 403, 403]);

    const signIns = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        instance.request('POST', '/access-tokens', {
          body: { email: `admin${i}@example.com`, password: 'password123' },
        }),
      ),
    );
    expect(signIns.filter((r) => r.status === 200)).toHaveLength(1);
  });

  it('validates the body with one entry per field', async () => {
    const res = await instance.request('POST', '/installation/users', {
      body: { email: 'not-an-email', password: 'short' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      errors: {
        email: ['must be a valid e-mail address.'],
        password: ['must be at least 8 characters.'],
        fullName: ['is required.'],
      },
      meta: { type: 'ValidationError' },
    });
    expect((await instance.request('GET', '/service/info')).body.data.installationCompleted).toBe(false);
  });

  it('stores the e-mail address in lower case, so sign-in ignores case', async () => {
    await instance.request('POST', '/installation/users', { body: { ...ADMIN, email: '  Ada@Example.COM ' } });
    await expect(signIn(instance, 'ADA@example.com', ADMIN.password)).resolves.toBeTypeOf('string');
  });
});
