import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestInstance, type TestInstance } from '../support/http.js';

// The test instance's WEB_APP_URL is http://conveyor.test.
const WEB_APP = 'http://conveyor.test';
const LISTED = 'http://localhost:3001';
const STRANGER = 'https://evil.example.com';

const preflight = (instance: TestInstance, path: string, origin: string, method = 'PATCH') =>
  instance.conveyor.app.request(path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization,content-type,x-conveyor-console',
    },
  });

const from = (instance: TestInstance, path: string, origin: string, init: RequestInit = {}) =>
  instance.conveyor.app.request(path, { ...init, headers: { ...init.headers, origin } });

describe('CORS', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startTestInstance('sqlite', { CORS_ORIGINS: LISTED });
  });
  afterAll(() => instance.close());

  it('answers a preflight from the web app’s origin or a listed one with 204, credentials and what may be sent', async () => {
    for (const origin of [WEB_APP, LISTED]) {
      for (const path of ['/api/v1/users/me', '/internal/api/v1/steps/x/test-and-continue', '/graphql']) {
        const res = await preflight(instance, path, origin);
        expect({ path, origin, status: res.status }).toEqual({ path, origin, status: 204 });
        expect(res.headers.get('access-control-allow-origin')).toBe(origin);
        expect(res.headers.get('access-control-allow-credentials')).toBe('true');
        expect(res.headers.get('access-control-allow-methods')?.split(',')).toEqual(
          expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']),
        );
        expect(res.headers.get('access-control-allow-headers')?.split(',')).toEqual(
          expect.arrayContaining(['Authorization', 'Content-Type', 'X-Conveyor-Console']),
        );
        expect(res.headers.get('vary')).toContain('Origin');
      }
    }
  });

  it('names the allowed origin on answers, refusals and unknown API paths alike', async () => {
    const info = await from(instance, '/api/v1/service/info', LISTED);
    expect(info.status).toBe(200);
    expect(info.headers.get('access-control-allow-origin')).toBe(LISTED);
    expect(info.headers.get('access-control-allow-credentials')).toBe('true');
    expect(info.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    expect(info.headers.get('vary')).toContain('Origin');
    // The client must see a 401 to send the user to the sign-in page.
    const refused = await from(instance, '/api/v1/users/me', LISTED);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(LISTED);
    const missing = await from(instance, '/internal/api/v1/nowhere', WEB_APP);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe(WEB_APP);
    const graphql = await from(instance, '/graphql', LISTED, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(graphql.headers.get('access-control-allow-origin')).toBe(LISTED);
  });

  it('never names another origin back', async () => {
    const res = await preflight(instance, '/api/v1/users/me', STRANGER);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const info = await from(instance, '/api/v1/service/info', STRANGER);
    expect(info.status).toBe(200);
    expect(info.headers.get('access-control-allow-origin')).toBeNull();
    const none = await instance.conveyor.app.request('/api/v1/service/info');
    expect(none.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('leaves webhooks, the health check and the console’s pages out', async () => {
    for (const path of ['/webhooks/flows/00000000-0000-4000-8000-000000000000', '/healthcheck', '/']) {
      const res = await from(instance, path, WEB_APP);
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
      expect(res.headers.get('access-control-allow-credentials'), path).toBeNull();
    }
    const hook = await preflight(instance, '/webhooks/flows/00000000-0000-4000-8000-000000000000', WEB_APP, 'POST');
    expect(hook.headers.get('access-control-allow-credentials')).toBeNull();
  });
});
