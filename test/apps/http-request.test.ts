import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInApps, createAppCatalog, type InProcessAppCatalog } from '../../adapters/apps/index.js';
import { BlockedAddressError, HttpError } from '../../adapters/apps/sdk/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type LocalHttpServer, sendJson, startHttpServer } from './support/http-server.js';

let server: LocalHttpServer;
let catalog: InProcessAppCatalog;

beforeAll(async () => {
  server = await startHttpServer((request, res) => {
    const url = new URL(request.url, 'http://local');
    switch (url.pathname) {
      case '/echo':
        res.setHeader('x-answer', 'yes');
        return sendJson(res, 201, {
          method: request.method,
          query: Object.fromEntries(url.searchParams),
          type: request.headers['content-type'] ?? null,
          token: request.headers['x-token'] ?? null,
          body: request.body,
        });
      case '/text':
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<p>hi</p>');
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/plain' });
        return void res.end('no such thing');
      case '/busy':
        return sendJson(res, 503, { message: 'Overloaded' });
      default:
        return sendJson(res, 404, {});
    }
  });
  catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: true, logger: new CapturingLogger() });
});

afterAll(async () => {
  await catalog.close();
  await server.close();
});

const send = (parameters: Record<string, unknown>, on: InProcessAppCatalog = catalog) =>
  on.runAction({ appKey: 'http-request', key: 'customRequest', parameters, connection: null, execution: null });

describe('http-request: customRequest', () => {
  it('returns the status, headers and parsed JSON of the answer', async () => {
    const result = await send({ url: `${server.url}/echo?q=1`, headers: [{ key: 'X-Token', value: 'abc' }] });
    expect(result).toEqual({
      status: 201,
      headers: expect.objectContaining({ 'x-answer': 'yes', 'content-type': 'application/json' }),
      data: { method: 'GET', query: { q: '1' }, type: null, token: 'abc', body: '' },
    });
  });

  it('sends a JSON object body as JSON', async () => {
    const result = await send({ method: 'POST', url: `${server.url}/echo`, data: '{"name": "Ada"}' });
    expect(result).toMatchObject({ data: { method: 'POST', type: 'application/json', body: '{"name":"Ada"}' } });
  });

  it('sends other text as text, and a given Content-Type with the body unchanged', async () => {
    const plain = await send({ method: 'PUT', url: `${server.url}/echo`, data: 'just words' });
    expect(plain).toMatchObject({ data: { type: 'text/plain; charset=utf-8', body: 'just words' } });
    const given = await send({
      method: 'PATCH',
      url: `${server.url}/echo`,
      headers: [{ key: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
      data: 'a=1&b={"x":2}',
    });
    expect(given).toMatchObject({ data: { type: 'application/x-www-form-urlencoded', body: 'a=1&b={"x":2}' } });
  });

  it('sends no body with GET', async () => {
    expect(await send({ url: `${server.url}/echo`, data: '{"ignored": true}' })).toMatchObject({
      data: { method: 'GET', body: '' },
    });
  });

  it('returns answers that are not JSON as text', async () => {
    expect(await send({ url: `${server.url}/text` })).toMatchObject({ status: 200, data: '<p>hi</p>' });
  });

  it('returns a client error as data, for the flow to act on', async () => {
    expect(await send({ method: 'DELETE', url: `${server.url}/missing` })).toMatchObject({
      status: 404,
      data: 'no such thing',
    });
  });

  it('throws server errors as a retryable HttpError, for the engine to retry', async () => {
    const error = await send({ url: `${server.url}/busy` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 503, retryable: true, remoteMessage: 'Overloaded' });
  });

  it('sends the idempotency key of the execution step with requests that change state, a given key winning', async () => {
    const execution = {
      id: 'exec-1',
      flowId: 'flow-1',
      stepId: 'step-1',
      testRun: false,
      idempotencyKey: 'exec-1:step-1',
    };
    const run = (parameters: Record<string, unknown>) =>
      catalog.runAction({ appKey: 'http-request', key: 'customRequest', parameters, connection: null, execution });
    const keyOf = () => server.requests.at(-1)?.headers['idempotency-key'];

    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      await run({ method, url: `${server.url}/echo`, data: '{"n": 1}' });
      expect(keyOf(), method).toBe('exec-1:step-1');
    }
    await run({ method: 'POST', url: `${server.url}/echo` });
    expect(keyOf()).toBe('exec-1:step-1');
    await run({ method: 'GET', url: `${server.url}/echo` });
    expect(keyOf()).toBeUndefined();
    await run({ method: 'POST', url: `${server.url}/echo`, headers: [{ key: 'idempotency-key', value: 'mine' }] });
    expect(keyOf()).toBe('mine');
    // Outside a run (no execution) there is no step to be idempotent for.
    await send({ method: 'POST', url: `${server.url}/echo` });
    expect(keyOf()).toBeUndefined();
  });

  it('refuses what is not an http(s) URL, and an unknown method', async () => {
    await expect(send({ url: 'file:///etc/passwd', method: 'TRACE' })).rejects.toMatchObject({
      name: 'InvalidParametersError',
      fields: { url: ['must be an http or https URL.'], method: [expect.stringMatching(/^must be one of: GET, /)] },
    });
  });

  it('cannot reach a loopback server when the instance refuses private networks', async () => {
    const guarded = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
    const before = server.requests.length;
    try {
      const error = await send({ url: `${server.url}/echo` }, guarded).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BlockedAddressError);
      // What the step's error shows: the setting that lifts the refusal.
      expect((error as Error).message).toMatch(/not allowed\. .*ALLOW_PRIVATE_NETWORKS=true/);
      expect(server.requests.length).toBe(before);
    } finally {
      await guarded.close();
    }
  });
});
