import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { ADMIN, installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

const CONSOLE = { 'x-conveyor-console': '1' };
const DAY_MS = 24 * 3600_000;

/** The `conveyor_session` cookie's value and attributes, from a Set-Cookie header. */
const sessionCookie = (header: string | null) => {
  const [pair = '', ...attributes] = (header ?? '').split(';').map((part) => part.trim());
  const [name, value] = pair.split('=');
  return { name, value, attributes };
};

/**
 * The web console's cookie session: the token sits in an HttpOnly, SameSite=Strict cookie scoped to
 * the API that page script cannot read, and counts only on requests with the console's header, which
 * pages on other sites cannot send. API clients keep their bearer and API tokens as before.
 */
describe.each(DIALECTS)("the console's cookie session (%s)", (dialect) => {
  let instance: TestInstance;
  beforeEach(async () => {
    instance = await startTestInstance(dialect);
    await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  const signIn = (headers: Record<string, string> = CONSOLE, password: string = ADMIN.password) =>
    instance.request('POST', '/session', { headers, body: { email: ADMIN.email, password } });
  const openSession = async () => {
    const res = await signIn();
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    return sessionCookie(res.headers.get('set-cookie')).value as string;
  };
  const withCookie = (token: string, headers: Record<string, string> = CONSOLE) => ({
    headers: { cookie: `conveyor_session=${token}`, ...headers },
  });

  it('signs in into an HttpOnly, SameSite=Strict cookie scoped to the API, and gives the token to no script', async () => {
    const res = await signIn();
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-store');
    const cookie = sessionCookie(res.headers.get('set-cookie'));
    expect(cookie.name).toBe('conveyor_session');
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/api/v1']));
    // Plain http here: Secure would keep the browser from sending it back.
    expect(cookie.attributes).not.toContain('Secure');
    const expires = Date.parse(cookie.attributes.find((a) => a.startsWith('Expires='))?.slice(8) ?? '');
    expect(expires - Date.now()).toBeGreaterThan(13 * DAY_MS);
    expect(expires - Date.now()).toBeLessThan(15 * DAY_MS);

    const me = await instance.request('GET', '/users/me', withCookie(cookie.value as string));
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(ADMIN.email);
    const session = await instance.request('GET', '/session', withCookie(cookie.value as string));
    expect(session.body).toMatchObject({ data: { signedIn: true }, meta: { type: 'Session' } });
  });

  it('marks the cookie Secure when the web app is served over https', async () => {
    const secure = await startTestInstance(dialect, { WEB_APP_URL: 'https://conveyor.test' });
    try {
      await installAndSignIn(secure);
      const res = await secure.request('POST', '/session', {
        headers: CONSOLE,
        body: { email: ADMIN.email, password: ADMIN.password },
      });
      expect(sessionCookie(res.headers.get('set-cookie')).attributes).toContain('Secure');
    } finally {
      await secure.close();
    }
  });

  it("counts the cookie only with the console's header: a cross-site request gets nothing done", async () => {
    const token = await openSession();
    // What a form or image on another site sends: the cookie (were SameSite to let it through), no header.
    expect((await instance.request('GET', '/users/me', withCookie(token, {}))).status).toBe(401);
    const forged = await instance.request('POST', '/flows', { ...withCookie(token, {}), body: {} });
    expect(forged.status).toBe(401);
    const asConsole = await instance.request('POST', '/flows', { ...withCookie(token), body: {} });
    expect(asConsole.status).toBe(201);
    const flows = await instance.request('GET', '/flows', withCookie(token));
    expect(flows.body.data).toHaveLength(1);
    expect((await instance.request('GET', '/session', withCookie(token, {}))).body.data).toEqual({ signedIn: false });
    expect((await instance.request('GET', '/session')).body.data).toEqual({ signedIn: false });
  });

  it('opens and closes the session only for the console, before looking at the body', async () => {
    for (const body of [{}, { email: ADMIN.email, password: ADMIN.password }]) {
      const res = await instance.request('POST', '/session', { body });
      expect(res.status).toBe(403);
      expect(res.body.meta.type).toBe('ForbiddenError');
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    expect((await instance.request('DELETE', '/session')).status).toBe(403);
    const wrong = await signIn(CONSOLE, 'not the password');
    expect(wrong.status).toBe(422);
    expect(wrong.body.meta.type).toBe('InvalidCredentialsError');
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('signs out: the token is revoked and the cookie cleared', async () => {
    const token = await openSession();
    const out = await instance.request('DELETE', '/session', withCookie(token));
    expect(out.status).toBe(204);
    const cleared = sessionCookie(out.headers.get('set-cookie'));
    expect(cleared).toMatchObject({ name: 'conveyor_session', value: '' });
    expect(cleared.attributes).toEqual(expect.arrayContaining(['Max-Age=0', 'Path=/api/v1']));
    expect((await instance.request('GET', '/users/me', withCookie(token))).status).toBe(401);
    expect((await instance.request('GET', '/users/me', { token })).status).toBe(401);
    // Signing out again, or without a session, still clears the cookie.
    expect((await instance.request('DELETE', '/session', withCookie(token))).status).toBe(204);
    expect((await instance.request('DELETE', '/session', { headers: CONSOLE })).status).toBe(204);
  });

  it('leaves API clients their tokens: a bearer or API token is the credential, and a wrong one is not made up by the cookie', async () => {
    const token = await openSession();
    const signedIn = await instance.request('POST', '/access-tokens', {
      body: { email: ADMIN.email, password: ADMIN.password },
    });
    expect(signedIn.status).toBe(200);
    expect(Object.keys(signedIn.body.data)).toEqual(['token']);
    expect(signedIn.headers.get('set-cookie')).toBeNull();
    const bearer = signedIn.body.data.token as string;
    expect((await instance.request('GET', '/users/me', { token: bearer })).status).toBe(200);
    const wrongBearer = await instance.request('GET', '/users/me', {
      headers: { ...withCookie(token).headers, authorization: 'Bearer not-a-token' },
    });
    expect(wrongBearer.status).toBe(401);
    const wrongApiToken = await instance.request('GET', '/users/me', {
      headers: { ...withCookie(token).headers, 'x-api-token': 'not-a-token' },
    });
    expect(wrongApiToken.status).toBe(401);
    expect((await instance.request('GET', '/session', { token: bearer })).body.data).toEqual({ signedIn: true });
  });
});
