import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapturingLogger } from '../support/capturing-logger.js';
import { buildFlow, eventually } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { listen } from '../support/listening.js';

/**
 * Bodies over real HTTP, where the server reads them straight from Node's stream: with or without
 * a declared length, in chunks that split a character, and over the limit either way.
 */
describe('request bodies read from the socket (sqlite)', () => {
  let instance: TestInstance;
  let server: Awaited<ReturnType<typeof listen>>;
  let flowId: string;
  beforeAll(async () => {
    instance = await startTestInstance('sqlite', { BODY_LIMIT_BYTES: '2048' });
    server = await listen(instance);
    const token = await installAndSignIn(instance);
    flowId = (await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [])).flowId;
  });
  afterAll(async () => {
    await server.close();
    await instance.close();
  });

  /** Sends the parts as a chunked body: no Content-Length, so only reading can find its size. */
  const chunked = (parts: readonly Uint8Array[]) =>
    fetch(`${server.url}/api/v1/access-tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);

  it('reads a chunked body whose chunks split a character', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ email: 'zoe@example.com', password: 'wrong pässword' }));
    const split = bytes.indexOf(0xc3) + 1; // between the two bytes of "ä"
    const res = await chunked([bytes.slice(0, split), bytes.slice(split)]);
    // Read and parsed: the credentials are wrong, not the body.
    expect(await res.json()).toMatchObject({ meta: { type: 'InvalidCredentialsError' } });
  });

  it('refuses a chunked body once it passes the limit', async () => {
    const part = new TextEncoder().encode('x'.repeat(1000));
    const res = await chunked([new TextEncoder().encode('{"email":"'), part, part, part]);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      errors: { general: ['The request body exceeds 2048 bytes.'] },
      meta: { type: 'PayloadTooLargeError' },
    });
  });

  it('refuses a declared length over the limit before reading, and reads one under it', async () => {
    const send = (password: string) =>
      fetch(`${server.url}/api/v1/access-tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'a@example.com', password }),
      });
    expect((await send('x'.repeat(4096))).status).toBe(413);
    expect(await (await send('short but wrong')).json()).toMatchObject({ meta: { type: 'InvalidCredentialsError' } });
  });

  it('reads a webhook body from the socket too: malformed JSON is a 400', async () => {
    const res = await fetch(`${server.url}/webhooks/flows/00000000-0000-4000-8000-000000000000`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"not": "json"',
    });
    expect(res.status).toBe(400);
  });

  describe.each(['', '/sync'])('webhook intake %s', (suffix) => {
    const url = () => `${server.url}/webhooks/flows/${flowId}${suffix}`;
    const refusal = {
      errors: { general: ['The request body exceeds 2048 bytes.'] },
      meta: { type: 'PayloadTooLargeError' },
    };
    const json = (size: number) => JSON.stringify({ padding: 'x'.repeat(size) });

    it('takes a body under BODY_LIMIT_BYTES', async () => {
      const res = await fetch(url(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: json(1000),
      });
      expect(res.status).toBe(204);
    });

    it('refuses a declared length over the limit with 413', async () => {
      const res = await fetch(url(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: json(4096),
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual(refusal);
    });

    it('refuses a chunked body once it passes the limit, whatever its content type', async () => {
      for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
        const part = new TextEncoder().encode('x'.repeat(1000));
        const res = await fetch(url(), {
          method: 'POST',
          headers: { 'content-type': type },
          body: new ReadableStream<Uint8Array>({
            start(controller) {
              for (let i = 0; i < 4; i++) controller.enqueue(part);
              controller.close();
            },
          }),
          duplex: 'half',
        } as RequestInit);
        expect({ type, status: res.status, body: await res.json() }).toEqual({ type, status: 413, body: refusal });
      }
    });
  });
});

describe('a body the client abandons (sqlite)', () => {
  const logger = new CapturingLogger();
  let instance: TestInstance;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    instance = await startTestInstance('sqlite', {}, { logger });
    server = await listen(instance);
  });
  afterAll(async () => {
    await server.close();
    await instance.close();
  });

  it('is the client hanging up (a 400 in the request log), not an unhandled server error', async () => {
    const { port } = new URL(server.url);
    // `Expect: 100-continue`: the server says "continue" once its handler has the request.
    const req = http.request({
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: '/api/v1/access-tokens',
      headers: { 'content-type': 'application/json', expect: '100-continue' },
    });
    req.on('error', () => {});
    await new Promise<void>((resolve) => req.on('continue', () => resolve()));
    req.write('{"email":');
    req.destroy();
    const line = await eventually(
      async () => logger.entries.find((entry) => entry.message === 'request'),
      (entry) => entry !== undefined,
    );
    expect(line?.fields).toMatchObject({ route: '/api/v1/access-tokens', status: 400 });
    expect(logger.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });
});
