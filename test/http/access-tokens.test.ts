import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

describe.each(DIALECTS)('access tokens (%s)', (dialect) => {
  let instance: TestInstance;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = new ManualClock();
    instance = await startTestInstance(dialect, {}, { clock });
  });
  afterEach(() => instance.close());

  it('signs in with e-mail and password and returns a token once', async () => {
    await installAndSignIn(instance);
    const res = await instance.request('POST', '/access-tokens', {
      body: { email: ADMIN.email, password: ADMIN.password },
    });
    expect(res.status).toBe(200);
    expect(res.body.meta.type).toBe('AccessToken');
    // 256 random bits, base64url without padding.
    expect(res.body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('answers a wrong pair and an unknown account the same way', async () => {
    await installAndSignIn(instance);
    const wrongPassword = await instance.request('POST', '/access-tokens', {
      body: { email: ADMIN.email, password: 'not the password' },
    });
    const unknown = await instance.request('POST', '/access-tokens', {
      body: { email: 'nobody@example.com', password: 'whatever1' },
    });
    for (const res of [wrongPassword, unknown]) {
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        errors: { general: ['Incorrect email or password.'] },
        meta: { type: 'InvalidCredentialsError' },
      });
    }
  });

  it('validates the sign-in body', async () => {
    const res = await instance.request('POST', '/access-tokens', { body: { email: 'x@example.com' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ password: ['is required.'] });
  });

  it('rate limits sign-in per account with 429 and Retry-After', async () => {
    await installAndSignIn(instance); // one attempt
    const attempts = [];
    for (let i = 0; i < 9; i++) {
      attempts.push(
        await instance.request('POST', '/access-tokens', { body: { email: ADMIN.email, password: 'nope-nope' } }),
      );
    }
    expect(attempts.every((r) => r.status === 422)).toBe(true);
    // The eleventh attempt in the window is refused, even with the right password.
    const limited = await instance.request('POST', '/access-tokens', {
      body: { email: ADMIN.email, password: ADMIN.password },
    });
    expect(limited.status).toBe(429);
    expect(limited.body.meta.type).toBe('RateLimitedError');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    clock.advance(15 * 60_000);
    await expect(signIn(instance, ADMIN.email, ADMIN.password)).resolves.toBeTypeOf('string');
  });

  it('revokes one of the caller’s own tokens', async () => {
    const token = await installAndSignIn(instance);
    const other = await signIn(instance, ADMIN.email, ADMIN.password);

    const res = await instance.request('DELETE', `/access-tokens/${other}`, { token });
    expect(res.status).toBe(204);
    expect((await instance.request('GET', '/users/me', { token: other })).status).toBe(401);
    expect((await instance.request('GET', '/users/me', { token })).status).toBe(200);

    const again = await instance.request('DELETE', `/access-tokens/${other}`, { token });
    expect(again.status).toBe(404);
    expect(again.body.meta.type).toBe('NotFoundError');
  });

  it('cannot revoke another user’s token', async () => {
    const adminToken = await installAndSignIn(instance);
    await enableRegistration(instance, adminToken);
    const { token: bobToken } = await registerAndSignIn(instance, BOB);

    const res = await instance.request('DELETE', `/access-tokens/${adminToken}`, { token: bobToken });
    expect(res.status).toBe(404);
    expect((await instance.request('GET', '/users/me', { token: adminToken })).status).toBe(200);
  });

  it('requires authentication to revoke', async () => {
    const token = await installAndSignIn(instance);
    const res = await instance.request('DELETE', `/access-tokens/${token}`);
    expect(res.status).toBe(401);
    expect(res.body.meta.type).toBe('UnauthenticatedError');
  });

  it('accepts the bare token form of the Authorization header', async () => {
    const token = await installAndSignIn(instance);
    const res = await instance.request('GET', '/users/me', { headers: { authorization: token } });
    expect(res.status).toBe(200);
  });

  it('expires tokens after 14 days', async () => {
    const token = await installAndSignIn(instance);
    clock.advance(14 * 24 * 60 * 60_000 - 1000);
    expect((await instance.request('GET', '/users/me', { token })).status).toBe(200);
    clock.advance(2000);
    expect((await instance.request('GET', '/users/me', { token })).status).toBe(401);
  });

  it('refuses garbage credentials with 401', async () => {
    await installAndSignIn(instance);
    for (const authorization of ['Bearer ', 'Bearer nope', 'x'.repeat(2000), 'Basic YWRhOnB3']) {
      const res = await instance.request('GET', '/users/me', { headers: { authorization } });
      expect(res.status).toBe(401);
    }
  });
});
