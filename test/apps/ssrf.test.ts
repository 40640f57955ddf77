import type { LookupAddress } from 'node:dns';
import { Dispatcher, MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInApps, createAppCatalog, type InProcessAppCatalog } from '../../adapters/apps/index.js';
import { createHttpClient } from '../../adapters/apps/sdk/http-client.js';
import { createHttpTransport, type HttpTransport } from '../../adapters/apps/sdk/http-transport.js';
import { BlockedAddressError, type ResolveHost } from '../../adapters/apps/sdk/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type LocalHttpServer, sendJson, startHttpServer } from './support/http-server.js';

/**
 * The SSRF guard of `ctx.http`, through the two apps that fetch a URL a user types: http-request and
 * rss. A local server stands for every internal service; no attempt may reach it.
 */
const PUBLIC = '93.184.215.14';
const v4 = (address: string): LookupAddress => ({ address, family: 4 });
const v6 = (address: string): LookupAddress => ({ address, family: 6 });

/** A DNS with fixed answers, plus one name that answers public once and private afterwards. */
const fakeDns = () => {
  const asked: string[] = [];
  const zone: Record<string, LookupAddress[]> = {
    localhost: [v4('127.0.0.1'), v6('::1')],
    'internal.test': [v4('127.0.0.1')],
    'private10.test': [v4('10.0.0.7')],
    'metadata.test': [v4('169.254.169.254')],
    'cgnat.test': [v4('100.64.0.1')],
    'loopback6.test': [v6('::1')],
    'mapped.test': [v6('::ffff:127.0.0.1')],
    'ula.test': [v6('fd00::1')],
    'linklocal6.test': [v6('fe80::1')],
    'all-private.test': [v4('127.0.0.1'), v4('192.168.1.1'), v6('::1')],
  };
  const resolve: ResolveHost = async (hostname) => {
    asked.push(hostname);
    if (hostname === 'rebind.test') {
      const earlier = asked.filter((h) => h === 'rebind.test').length;
      return earlier === 1 ? [v4(PUBLIC)] : [v4('127.0.0.1')];
    }
    const answer = zone[hostname];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answer;
  };
  return { resolve, asked };
};

let server: LocalHttpServer;
beforeAll(async () => {
  server = await startHttpServer((_request, res) => sendJson(res, 200, { reached: true }));
});
afterAll(() => server.close());

const APPS = {
  'http-request': (on: InProcessAppCatalog, url: string) =>
    on.runAction({
      appKey: 'http-request',
      key: 'customRequest',
      parameters: { url },
      connection: null,
      execution: null,
    }),
  rss: (on: InProcessAppCatalog, url: string) =>
    on.runTrigger({
      appKey: 'rss',
      key: 'newItemsInFeed',
      parameters: { feedUrl: url },
      connection: null,
      execution: null,
    }),
};

/** Literal forms of internal addresses, including the spellings URL parsers turn into 127.0.0.1. */
const LITERALS = [
  '127.0.0.1',
  '127.1',
  '127.0.1',
  '2130706433',
  '0x7f000001',
  '0x7f.0.0.1',
  '017700000001',
  '0177.0.0.1',
  '0',
  '0.0.0.0',
  '10.0.0.1',
  '172.16.0.1',
  '172.31.255.254',
  '192.168.0.1',
  '169.254.169.254',
  '100.64.0.1',
  '[::1]',
  '[::]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[0:0:0:0:0:ffff:a00:1]',
  '[::ffff:169.254.169.254]',
  '[64:ff9b::7f00:1]',
  '[fc00::1]',
  '[fd12:3456::1]',
  '[fe80::1]',
];
const NAMES = [
  'localhost',
  'internal.test',
  'private10.test',
  'metadata.test',
  'cgnat.test',
  'loopback6.test',
  'mapped.test',
  'ula.test',
  'linklocal6.test',
  'all-private.test',
];

describe.each(Object.keys(APPS) as (keyof typeof APPS)[])('SSRF guard through %s', (appKey) => {
  const fetchWith = APPS[appKey];
  let dns: ReturnType<typeof fakeDns>;
  let guarded: InProcessAppCatalog;
  beforeAll(() => {
    dns = fakeDns();
    guarded = createAppCatalog({
      apps: builtInApps,
      allowPrivateNetworks: false,
      logger: new CapturingLogger(),
      resolveHost: dns.resolve,
      // The rebinding case's public answer is an address this test never serves: it must fail soon.
      httpLimits: { timeoutMs: 1500 },
    });
  });
  afterAll(() => guarded.close());

  it.each(LITERALS)('refuses http://%s', async (host) => {
    const before = server.requests.length;
    const error = await fetchWith(guarded, `http://${host}:${server.port}/feed`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect(server.requests.length).toBe(before);
  });

  it.each(NAMES)('refuses a name that resolves to internal addresses only: %s', async (name) => {
    const before = server.requests.length;
    const error = await fetchWith(guarded, `http://${name}:${server.port}/feed`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect(server.requests.length).toBe(before);
  });

  it('checks the address it connects to, so a name rebound to loopback after a public answer is refused', async () => {
    const before = server.requests.length;
    const url = `http://rebind.test:${server.port}/feed`;
    // First answer public: whatever happens there, it is not this machine.
    const first = await fetchWith(guarded, url).catch((e: unknown) => e);
    expect(first).not.toBeInstanceOf(BlockedAddressError);
    // The same name now answers 127.0.0.1: the guard asks again at connect time and refuses it.
    const second = await fetchWith(guarded, url).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(BlockedAddressError);
    expect((second as BlockedAddressError).address).toBe('127.0.0.1');
    expect(dns.asked.filter((h) => h === 'rebind.test').length).toBe(2);
    expect(server.requests.length).toBe(before);
  });
});

describe('SSRF guard on redirects', () => {
  let transport: HttpTransport;
  let mock: MockAgent;
  beforeAll(() => {
    const guardedTransport = createHttpTransport({ allowPrivateNetworks: false });
    // A public site, played by undici's mock, that redirects; every other origin goes to the guarded agent.
    mock = new MockAgent();
    mock.disableNetConnect();
    const site = mock.get('http://public.example');
    for (const [path, location] of [
      ['/to-literal', `http://127.0.0.1:${server.port}/`],
      ['/to-decimal', `http://2130706433:${server.port}/`],
      ['/to-mapped', `http://[::ffff:127.0.0.1]:${server.port}/`],
      ['/to-metadata', 'http://169.254.169.254/latest/meta-data/'],
      ['/to-name', `http://localhost:${server.port}/`],
      ['/to-file', 'file:///etc/passwd'],
    ] as const) {
      site.intercept({ path }).reply(302, '', { headers: { location } }).persist();
    }
    class Router extends Dispatcher {
      override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandlers) {
        const origin = String(options.origin);
        return (origin === 'http://public.example' ? mock : guardedTransport.agent).dispatch(options, handler);
      }
    }
    transport = {
      ...guardedTransport,
      agent: new Router() as never,
      close: async () => {
        await mock.close();
        await guardedTransport.close();
      },
    };
  });
  afterAll(() => transport.close());

  it.each(['/to-literal', '/to-decimal', '/to-mapped', '/to-metadata', '/to-name', '/to-file'])(
    'refuses a public answer redirecting %s',
    async (path) => {
      const before = server.requests.length;
      const error = await createHttpClient({ transport })
        .request({ url: `http://public.example${path}` })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BlockedAddressError);
      expect(server.requests.length).toBe(before);
    },
  );
});
