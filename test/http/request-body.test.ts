import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestInstance, type TestInstance } from '../support/http.js';
import { listen } from '../support/listening.js';

/**
 * Bodies over real HTTP, where the server reads them straight from Node's stream: with or without
 * a declared length, in chunks that split a character, and over the limit either way.
 */
describe('request bodies read from the socket (sqlite)', () => {
  let instance: TestInstance;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    instance = await startTestInstance('sqlite', { BODY_LIMIT_BYTES: '2048' });
    server = await listen(instance);
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
});
