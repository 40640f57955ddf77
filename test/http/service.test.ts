import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { startTestInstance, type TestInstance } from '../support/http.js';

describe.each(DIALECTS)('service routes and HTTP conventions (%s)', (dialect) => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startTestInstance(dialect, { BODY_LIMIT_BYTES: '2048' });
  });
  afterAll(() => instance.close());

  it('reports an uninstalled instance in the success envelope', async () => {
    const res = await instance.request('GET', '/service/info');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        installationCompleted: false,
        version: '0.13.1',
        isEnterprise: false,
        isCloud: false,
        docsUrl: null,
        registrationEnabled: false,
      },
      meta: { type: 'Object', count: 1, isArray: false, currentPage: null, totalPages: null },
    });
  });

  it('reports the release number', async () => {
    const res = await instance.request('GET', '/service/version');
    expect(res.body.data).toEqual({ version: '0.13.1' });
  });

  it('answers identically on the internal mount', async () => {
    const pub = await instance.request('GET', '/service/info');
    const internal = await instance.request('GET', '/service/info', { mount: '/internal/api/v1' });
    expect(internal.status).toBe(200);
    expect(internal.body).toEqual(pub.body);
  });

  it('has no notifications: an empty list, as Automatisch answers when its feed is out of reach', async () => {
    const res = await instance.request('GET', '/service/notifications');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [],
      meta: { type: 'Object', count: 0, isArray: true, currentPage: null, totalPages: null },
    });
  });

  it('answers Automatisch’s /automatisch paths as the /service ones, on both mounts', async () => {
    for (const name of ['info', 'version', 'license', 'config', 'notifications']) {
      const service = await instance.request('GET', `/service/${name}`);
      for (const mount of ['/api/v1', '/internal/api/v1']) {
        const alias = await instance.request('GET', `/automatisch/${name}`, { mount });
        expect({ name, mount, status: alias.status, body: alias.body }).toEqual({
          name,
          mount,
          status: 200,
          body: service.body,
        });
      }
    }
  });

  it('answers unknown routes with a JSON 404 in the error shape', async () => {
    // Other GET paths are pages of the web console (test/http/web-console.test.ts); other methods are not.
    for (const [method, path] of [
      ['GET', '/api/v1/no-such-thing'],
      ['GET', '/api/nowhere'],
      ['GET', '/internal/api/v1/flowz'],
      ['POST', '/nowhere'],
    ] as const) {
      const res = await instance.conveyor.app.request(path, { method });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ errors: { general: ['Not found.'] }, meta: { type: 'NotFoundError' } });
    }
  });

  it('refuses malformed JSON and non-JSON bodies with 400', async () => {
    const malformed = await instance.request('POST', '/access-tokens', { body: '{"email":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.meta.type).toBe('BadRequestError');
    const form = await instance.request('POST', '/access-tokens', {
      body: 'email=a@b.c',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
  });

  it('refuses bodies over the size limit with 413', async () => {
    const res = await instance.request('POST', '/access-tokens', {
      body: { email: 'a@example.com', password: 'x'.repeat(4096) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      errors: { general: ['The request body exceeds 2048 bytes.'] },
      meta: { type: 'PayloadTooLargeError' },
    });
  });

  it('gives every response a request id and echoes a sane incoming one', async () => {
    const generated = await instance.conveyor.app.request('/api/v1/service/version');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await instance.conveyor.app.request('/api/v1/service/version', {
      headers: { 'x-request-id': 'trace-123' },
    });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
  });

  it('reports health from the database', async () => {
    const res = await instance.conveyor.app.request('/healthcheck');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});

describe.each(DIALECTS)('JSON bodies (%s)', (dialect) => {
  it('must be objects where the route takes an object', async () => {
    const instance = await startTestInstance(dialect);
    try {
      const res = await instance.request('POST', '/access-tokens', { body: [] });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: { general: ['must be an object.'] }, meta: { type: 'ValidationError' } });
      const empty = await instance.request('POST', '/access-tokens', { body: '' });
      expect(empty.status).toBe(422);
      expect(empty.body.errors).toEqual({ email: ['is required.'], password: ['is required.'] });
    } finally {
      await instance.close();
    }
  });
});
