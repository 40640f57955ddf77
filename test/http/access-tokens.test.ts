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

  it('rate limits failed sign-ins per account and address with 429 and Retry-After', async () => {
    await installAndSignIn(instance);
    const attempts = [];
    for (let i = 0; i < 10; i++) {
      attempts.push(
        await instance.request('POST', '/access-tokens', { body: { email: ADMIN.email, password: 'nope-nope' } }),
      );
    }
    expect(attempts.every((r) => r.status === 422)).toBe(true);
    // The eleventh attempt in the window is refused, even with the right password, from this address.
    const limited = await instance.request('POST', '/access-tokens', {
      body: { email: ADMIN.email, password: ADMIN.password },
    });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      errors: { general: [expect.any(String)] },
      meta: { type: 'RateLimitedError' },
    });
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

describe.each(DIALECTS)('sign-in budgets behind a proxy (%s)', (dialect) => {
  let instance: TestInstance;
  let clock: ManualClock;
  afterEach(() => instance.close());

  const start = async (env: Record<string, string> = {}) => {
    clock = new ManualClock();
    instance = await startTestInstance(dialect, { TRUST_PROXY: 'true', ...env }, { clock });
    await instance.request('POST', '/installation/users', { body: ADMIN });
  };
  /** A sign-in as the proxy forwards it: `forwardedFor` is the X-Forwarded-For it sends on. */
  const attempt = (forwardedFor: string, password: string, email: string = ADMIN.email) =>
    instance.request('POST', '/access-tokens', {
      body: { email, password },
      headers: { 'x-forwarded-for': forwardedFor },
    });
  const fail = async (forwardedFor: string, times: number, email: string = ADMIN.email) => {
    const statuses = [];
    for (let i = 0; i < times; i++) statuses.push((await attempt(forwardedFor, 'not the password', email)).status);
    return statuses;
  };

  it('lets the right password in from an address that has not failed while another address is locked out', async () => {
    await start();
    expect(await fail('203.0.113.66', 10)).toEqual(Array(10).fill(422));
    expect((await attempt('203.0.113.66', ADMIN.password)).status).toBe(429);
    expect((await attempt('198.51.100.7', ADMIN.password)).status).toBe(200);
  });

  it('counts only failures: successes use no budget, and a success forgives the failures before it', async () => {
    await start();
    for (let i = 0; i < 12; i++) expect((await attempt('198.51.100.7', ADMIN.password)).status).toBe(200);
    expect(await fail('198.51.100.7', 9)).toEqual(Array(9).fill(422));
    expect((await attempt('198.51.100.7', ADMIN.password)).status).toBe(200);
    // The account-and-address count started again at the success.
    expect(await fail('198.51.100.7', 10)).toEqual(Array(10).fill(422));
    expect((await attempt('198.51.100.7', 'not the password')).status).toBe(429);
  });

  it('limits failures per address across accounts, so one address cannot spray many', async () => {
    await start({ RATE_LIMIT_SIGN_IN_IP: '5/15m' });
    const accounts = ['a', 'b', 'c', 'd', 'e'].map((name) => `${name}@example.com`);
    for (const email of accounts) expect(await fail('203.0.113.66', 1, email)).toEqual([422]);
    expect((await attempt('203.0.113.66', 'not the password', 'f@example.com')).status).toBe(429);
    expect((await attempt('203.0.113.66', ADMIN.password)).status).toBe(429);
    expect((await attempt('198.51.100.7', ADMIN.password)).status).toBe(200);
  });

  it('takes the address the proxy saw, not one the caller wrote in X-Forwarded-For', async () => {
    await start();
    for (let i = 0; i < 10; i++) expect(await fail(`10.0.0.${i}, 203.0.113.66`, 1)).toEqual([422]);
    expect((await attempt('10.0.0.99, 203.0.113.66', ADMIN.password)).status).toBe(429);
  });

  it('counts an IPv6 caller by its /64', async () => {
    await start();
    for (let i = 1; i <= 10; i++) expect(await fail(`2001:db8:1:2::${i.toString(16)}`, 1)).toEqual([422]);
    expect((await attempt('2001:db8:1:2:ffff::1', ADMIN.password)).status).toBe(429);
    expect((await attempt('2001:db8:1:3::1', ADMIN.password)).status).toBe(200);
  });

  it('takes its budgets from the environment', async () => {
    await start({ RATE_LIMIT_SIGN_IN: '3/1m' });
    expect(await fail('203.0.113.66', 3)).toEqual([422, 422, 422]);
    const limited = await attempt('203.0.113.66', ADMIN.password);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBe(60);
    clock.advance(60_000);
    expect((await attempt('203.0.113.66', ADMIN.password)).status).toBe(200);
  });
});
