import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalHttpServer, sendJson, startHttpServer } from '../../../test/apps/support/http-server.js';
import { createHttpClient, type HttpClientOptions } from './http-client.js';
import { HttpError, HttpRequestError } from './http-errors.js';
import { createHttpTransport, type HttpTransport } from './http-transport.js';
import { BlockedAddressError } from './network-guard.js';

let server: LocalHttpServer;
let other: LocalHttpServer;
let open: HttpTransport;
let closed: HttpTransport;

beforeAll(async () => {
  server = await startHttpServer(async (request, res) => {
    const url = new URL(request.url, 'http://local');
    switch (url.pathname) {
      case '/json':
        return sendJson(res, 200, { hello: 'world', query: Object.fromEntries(url.searchParams) });
      case '/echo':
        return sendJson(res, 200, {
          method: request.method,
          body: request.body,
          type: request.headers['content-type'],
        });
      case '/text':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end('plain words');
      case '/slow':
        await new Promise((resolve) => setTimeout(resolve, 2000));
        return sendJson(res, 200, {});
      case '/big': {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 97);
        for (let i = 0; i < 32; i++) res.write(chunk);
        return void res.end();
      }
      case '/missing':
        return sendJson(res, 404, { message: 'Not Found' });
      case '/busy':
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '7' });
        return void res.end(JSON.stringify({ message: 'Try later' }));
      case '/private':
        return request.headers.authorization === 'Bearer fresh'
          ? sendJson(res, 200, { ok: true })
          : sendJson(res, 401, { message: 'Bad credentials' });
      case '/redirect':
        res.writeHead(302, { location: '/json?from=redirect' });
        return void res.end();
      case '/away':
        res.writeHead(307, { location: `${other.url}/headers` });
        return void res.end();
      case '/headers':
        return sendJson(res, 200, { authorization: request.headers.authorization ?? null });
      default:
        return sendJson(res, 404, {});
    }
  });
  other = await startHttpServer((request, res) =>
    sendJson(res, 200, { authorization: request.headers.authorization ?? null }),
  );
  open = createHttpTransport({ allowPrivateNetworks: true });
  closed = createHttpTransport({ allowPrivateNetworks: false });
});

afterAll(async () => {
  await Promise.all([open.close(), closed.close(), server.close(), other.close()]);
});

const client = (options: Partial<HttpClientOptions> = {}) => createHttpClient({ transport: open, ...options });

describe('the network guard of ctx.http', () => {
  it.each([
    () => `http://127.0.0.1:${server.port}/json`,
    () => 'http://10.0.0.1/',
    () => 'http://169.254.169.254/latest/meta-data/',
    () => `http://[::1]:${server.port}/json`,
    () => `http://[::ffff:127.0.0.1]:${server.port}/json`,
    () => `http://localhost:${server.port}/json`,
  ])('refuses internal target %#', async (url) => {
    const before = server.requests.length;
    const guarded = createHttpClient({ transport: closed });
    await expect(guarded.request({ url: url() })).rejects.toBeInstanceOf(BlockedAddressError);
    expect(server.requests.length).toBe(before);
  });

  it('refuses schemes other than http and https', async () => {
    await expect(createHttpClient({ transport: closed }).request({ url: 'file:///etc/passwd' })).rejects.toBeInstanceOf(
      BlockedAddressError,
    );
  });

  it('reaches the same targets when the instance allows private networks', async () => {
    const { data } = await client().request({ url: `http://localhost:${server.port}/json` });
    expect(data).toMatchObject({ hello: 'world' });
  });
});

describe('ctx.http requests and answers', () => {
  it('joins paths to the base URL, adds the query and parses JSON', async () => {
    const http = client({ baseUrl: () => `${server.url}/` });
    const response = await http.request({ path: '/json', query: { a: 1, b: 'two', c: undefined } });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.data).toEqual({ hello: 'world', query: { a: '1', b: 'two' } });
  });

  it('sends objects as JSON and text as text', async () => {
    const http = client({ baseUrl: () => server.url });
    const asJson = await http.request({ method: 'POST', path: '/echo', body: { n: 1 } });
    expect(asJson.data).toEqual({ method: 'POST', body: '{"n":1}', type: 'application/json' });
    const asText = await http.request({ method: 'PUT', path: '/echo', body: 'hi' });
    expect(asText.data).toMatchObject({ body: 'hi', type: 'text/plain; charset=utf-8' });
  });

  it('returns text that is not JSON as text', async () => {
    expect((await client().request({ url: `${server.url}/text` })).data).toBe('plain words');
  });

  it('throws an HttpError with the status and the remote message for answers >= 400', async () => {
    const error = await client()
      .request({ url: `${server.url}/missing?key=secret` })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    const http = error as HttpError;
    expect(http.status).toBe(404);
    expect(http.remoteMessage).toBe('Not Found');
    expect(http.bodyExcerpt).toContain('Not Found');
    expect(http.message).not.toContain('secret');
  });

  it('returns answers >= 400 when asked not to throw', async () => {
    const response = await client().request({ url: `${server.url}/missing`, throwHttpErrors: false });
    expect(response.status).toBe(404);
  });

  it('throws only answers worth retrying when asked to, and returns the others', async () => {
    const missing = await client().request({ url: `${server.url}/missing`, throwHttpErrors: 'retryable' });
    expect(missing).toMatchObject({ status: 404, data: { message: 'Not Found' } });
    const error = await client()
      .request({ url: `${server.url}/busy`, throwHttpErrors: 'retryable' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 503, retryable: true, retryAfterSeconds: 7, remoteMessage: 'Try later' });
  });

  it('gives up after the time-out', async () => {
    const started = Date.now();
    const error = await client()
      .request({ url: `${server.url}/slow`, timeoutMs: 200 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpRequestError);
    expect((error as HttpRequestError).kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('refuses answers larger than the limit', async () => {
    const error = await client()
      .request({ url: `${server.url}/big`, maxResponseBytes: 1024 * 1024 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpRequestError);
    expect((error as HttpRequestError).kind).toBe('too_large');
    const whole = await client().request({ url: `${server.url}/big`, maxResponseBytes: 4 * 1024 * 1024 });
    expect((whole.data as string).length).toBe(2 * 1024 * 1024);
  });

  it('applies the transport limits by default', async () => {
    const small = createHttpTransport({ allowPrivateNetworks: true }, { maxResponseBytes: 1000, timeoutMs: 150 });
    try {
      const http = createHttpClient({ transport: small });
      await expect(http.request({ url: `${server.url}/big` })).rejects.toMatchObject({ kind: 'too_large' });
      await expect(http.request({ url: `${server.url}/slow` })).rejects.toMatchObject({ kind: 'timeout' });
    } finally {
      await small.close();
    }
  });

  it('stops when the run is cancelled', async () => {
    const controller = new AbortController();
    const pending = client({ signal: controller.signal }).request({ url: `${server.url}/slow` });
    controller.abort(new Error('cancelled'));
    await expect(pending).rejects.toThrow('cancelled');
  });

  it('follows redirects', async () => {
    const { data } = await client().request({ url: `${server.url}/redirect` });
    expect(data).toMatchObject({ query: { from: 'redirect' } });
  });
});

describe('credentials in ctx.http', () => {
  const withToken = (token: string) => ({
    baseUrl: () => server.url,
    authHeaders: async () => ({ authorization: `Bearer ${token}` }),
  });

  it('sends the auth headers to the base URL only', async () => {
    const http = client(withToken('t'));
    expect((await http.request({ path: '/headers' })).data).toEqual({ authorization: 'Bearer t' });
    expect((await http.request({ url: `${other.url}/` })).data).toEqual({ authorization: null });
  });

  it("sends them to the vendor's related APIs too, and moves those where their override says", async () => {
    const related = client({ ...withToken('t'), relatedApis: () => [{ from: other.url, to: other.url }] });
    expect((await related.request({ url: `${other.url}/` })).data).toEqual({ authorization: 'Bearer t' });
    const moved = client({
      ...withToken('t'),
      relatedApis: () => [{ from: 'https://related.invalid', to: server.url }],
    });
    expect((await moved.request({ url: 'https://related.invalid/json?a=1', query: { b: 2 } })).data).toMatchObject({
      query: { a: '1', b: '2' },
    });
    expect((await moved.request({ url: 'https://related.invalid/headers' })).data).toEqual({
      authorization: 'Bearer t',
    });
    expect((await moved.request({ url: `${other.url}/` })).data).toEqual({ authorization: null });
  });

  it('drops them when a redirect leaves the base URL', async () => {
    expect((await client(withToken('t')).request({ path: '/away' })).data).toEqual({ authorization: null });
  });

  it('refreshes once on 401 and retries with the new credentials', async () => {
    let token = 'stale';
    const refreshed: Readonly<Record<string, string>>[] = [];
    const http = client({
      baseUrl: () => server.url,
      authHeaders: async () => ({ authorization: `Bearer ${token}` }),
      refreshAuth: async (sent) => {
        refreshed.push(sent);
        token = 'fresh';
        return true;
      },
    });
    expect((await http.request({ path: '/private' })).data).toEqual({ ok: true });
    // It is told what the refused request carried, to tell a stale token from one renewed meanwhile.
    expect(refreshed).toEqual([{ authorization: 'Bearer stale' }]);
  });

  it('throws the 401 when the refresh does not help, after one attempt', async () => {
    let refreshes = 0;
    const http = client({
      ...withToken('stale'),
      refreshAuth: async () => {
        refreshes++;
        return true;
      },
    });
    await expect(http.request({ path: '/private' })).rejects.toMatchObject({ status: 401 });
    expect(refreshes).toBe(1);
  });
});
