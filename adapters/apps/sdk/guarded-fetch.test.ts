import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTransport, guardedFetch } from './http-transport.js';
import { BlockedAddressError } from './network-guard.js';

describe('guardedFetch, the fetch vendors’ SDKs get as ctx.fetch', () => {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () =>
      res.end(
        JSON.stringify({
          path: req.url,
          method: req.method,
          ...(body && { body }),
          ...(req.headers['x-a'] && { header: req.headers['x-a'] }),
        }),
      ),
    );
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('reaches what the network policy allows, with the method and body given', async () => {
    const transport = createHttpTransport({ allowPrivateNetworks: true });
    const fetch = guardedFetch(transport, new AbortController().signal);
    const res = await fetch(`${url}/v1/chat`, { method: 'POST', body: '{}' });
    expect(await res.json()).toEqual({ path: '/v1/chat', method: 'POST', body: '{}' });
    await transport.close();
  });

  it('takes a Request as some SDKs hand it (Mistral’s): its method, headers and body kept', async () => {
    const transport = createHttpTransport({ allowPrivateNetworks: true });
    const fetch = guardedFetch(transport, new AbortController().signal);
    const res = await fetch(
      new Request(`${url}/v1/chat`, { method: 'POST', body: '{"a":1}', headers: { 'x-a': '1' } }),
    );
    expect(await res.json()).toEqual({ path: '/v1/chat', method: 'POST', body: '{"a":1}', header: '1' });
    await transport.close();
  });

  it('refuses internal addresses, by IP or by name, unless private networks are allowed', async () => {
    const transport = createHttpTransport({ allowPrivateNetworks: false });
    const fetch = guardedFetch(transport, new AbortController().signal);
    await expect(fetch(`${url}/`)).rejects.toBeInstanceOf(BlockedAddressError);
    const byName = url.replace('127.0.0.1', 'localhost');
    await expect(fetch(`${byName}/`)).rejects.toMatchObject({ cause: expect.any(BlockedAddressError) });
    await transport.close();
  });

  it('is cut when the step is', async () => {
    const transport = createHttpTransport({ allowPrivateNetworks: true });
    const step = new AbortController();
    step.abort();
    await expect(guardedFetch(transport, step.signal)(`${url}/`)).rejects.toMatchObject({ name: 'AbortError' });
    await transport.close();
  });
});
