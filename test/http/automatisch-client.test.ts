import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestInstance, type TestInstance } from '../support/http.js';

/** Where Automatisch's web client is served from: another origin than the API's. */
const CLIENT = 'http://automatisch-web.test';
const SIMPLE_METHODS = ['GET', 'HEAD', 'POST'];

/**
 * The requests Automatisch v0.15.0's web client (packages/web) makes when it starts, signs in and
 * builds a first flow, sent as a browser on another origin sends them: a preflight wherever one is
 * needed, then the request with its `Origin`, under the client's base `/internal/api`, with the
 * token as the client keeps it (a bare `Authorization` header).
 */
describe('Automatisch’s web client against Conveyor, from another origin', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startTestInstance('sqlite', { CORS_ORIGINS: CLIENT });
  });
  afterAll(() => instance.close());

  const api = async (method: string, path: string, options: { token?: string; body?: unknown } = {}) => {
    const url = `/internal/api/v1${path}`;
    const headers: Record<string, string> = {
      ...(options.token && { authorization: options.token }),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
    };
    // Authorization and a JSON body are not CORS-safelisted, nor PATCH and DELETE: the browser asks first.
    if (Object.keys(headers).length > 0 || !SIMPLE_METHODS.includes(method)) {
      const preflight = await instance.conveyor.app.request(url, {
        method: 'OPTIONS',
        headers: {
          origin: CLIENT,
          'access-control-request-method': method,
          'access-control-request-headers': Object.keys(headers).join(','),
        },
      });
      expect({ url, status: preflight.status }).toEqual({ url, status: 204 });
      expect(preflight.headers.get('access-control-allow-origin')).toBe(CLIENT);
      expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
      expect(preflight.headers.get('access-control-allow-methods')?.split(',')).toContain(method);
      const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',');
      for (const header of Object.keys(headers)) expect(allowed).toContain(header);
    }
    const res = await instance.conveyor.app.request(url, {
      method,
      headers: { ...headers, origin: CLIENT },
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
    });
    expect(res.headers.get('access-control-allow-origin')).toBe(CLIENT);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const one = { count: 1, isArray: false, currentPage: null, totalPages: null };

  it('installs, signs in, loads its pages and builds a first flow', async () => {
    // Before anything: what the instance is, and its branding.
    const info = await api('GET', '/automatisch/info');
    expect(info.body).toMatchObject({ data: { installationCompleted: false }, meta: { type: 'Object', ...one } });
    expect((await api('GET', '/automatisch/config')).status).toBe(200);
    expect((await api('POST', '/installation/users', { body: ADMIN })).status).toBe(204);
    const signedIn = await api('POST', '/access-tokens', { body: { email: ADMIN.email, password: ADMIN.password } });
    expect(signedIn.status).toBe(200);
    const token = signedIn.body.data.token as string;

    // Every page: the user and what they may do, the version and notifications, the licence.
    const me = await api('GET', '/users/me', { token });
    expect(me.body.meta).toMatchObject({ type: 'User', ...one });
    expect(me.body.data.permissions).toEqual(
      expect.arrayContaining([
        { action: 'manage', subject: 'Flow', conditions: [] },
        { action: 'manage', subject: 'User', conditions: [] },
      ]),
    );
    expect((await api('GET', '/automatisch/version', { token })).body.data.version).toEqual(expect.any(String));
    expect((await api('GET', '/automatisch/notifications', { token })).body).toMatchObject({
      data: [],
      meta: { isArray: true, count: 0 },
    });
    expect((await api('GET', '/automatisch/license', { token })).body.data).toMatchObject({ verified: false });
    const flows = await api('GET', '/flows?page=1', { token });
    expect(flows.body).toMatchObject({ data: [], meta: { type: 'Flow', isArray: true, currentPage: 1 } });
    expect((await api('GET', '/folders', { token })).body.meta.isArray).toBe(true);

    // The editor: a new flow, an app chosen for its trigger (key still empty), then its event.
    const created = await api('POST', '/flows', { token });
    expect(created.status).toBe(201);
    const [trigger, action] = created.body.data.steps;
    const chosen = await api('PATCH', `/steps/${trigger.id}`, {
      token,
      body: { appKey: 'webhook', key: '', parameters: {}, connectionId: null, name: trigger.name },
    });
    expect(chosen.status).toBe(200);
    const event = await api('PATCH', `/steps/${trigger.id}`, {
      token,
      body: { appKey: 'webhook', key: 'catchRawWebhook', parameters: {}, name: 'Catch raw webhook' },
    });
    expect(event.body.data).toMatchObject({ key: 'catchRawWebhook', status: 'completed' });
    const untested = await api('POST', `/steps/${trigger.id}/test-and-continue`, { token });
    expect(untested.body).toMatchObject({ data: { id: trigger.id, lastExecutionStep: null }, meta: { type: 'Step' } });
    expect((await api('POST', `/steps/${trigger.id}/continue-without-test`, { token })).status).toBe(200);

    // Connecting an app for the action: its steps are runnable by the client (arguments to iterate).
    const auth = await api('GET', '/apps/smtp/auth', { token });
    for (const step of auth.body.data.authenticationSteps) {
      expect(step).toEqual(expect.objectContaining({ type: 'mutation', arguments: expect.any(Array) }));
    }
    expect((await api('DELETE', `/steps/${action.id}`, { token })).status).toBe(204);
  });
});
