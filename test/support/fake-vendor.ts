/**
 * A small kit for faking a vendor's HTTP API in an app's tests: routes written as
 * `'GET /v1/items/:id'` with handlers answering what the vendor's documentation shows, every
 * request recorded, the vendor's authentication checked, and its rate limit replayed on demand.
 * Apps reach it through the base-URL override (`runAppAction(app, key, { baseUrl: vendor.url })`,
 * or `APP_BASE_URL_<KEY>` for an instance).
 *
 *   const vendor = await startFakeVendor({
 *     authorize: (req) => req.headers.authorization === 'Bearer t0ken',
 *     routes: { 'POST /v1/items': (req) => reply(201, { id: 'i1', ...(req.body as object) }) },
 *   });
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  readonly method: string;
  /** The path without the query. */
  readonly path: string;
  /** The route's `:name` parts. */
  readonly params: Readonly<Record<string, string>>;
  /** Each query parameter's first value (`queryAll` has every value). */
  readonly query: Readonly<Record<string, string>>;
  readonly queryAll: URLSearchParams;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body exactly as received. */
  readonly rawBody: string;
  /** JSON and form bodies parsed; other text as it is; null when empty. */
  readonly body: unknown;
}

/** A full answer; a handler returning anything else answers it as JSON with status 200. */
export class FakeReply {
  constructor(
    readonly status: number,
    readonly body: unknown = null,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

export const reply = (status: number, body?: unknown, headers?: Readonly<Record<string, string>>) =>
  new FakeReply(status, body ?? null, headers ?? {});

export type FakeHandler = (request: FakeRequest, vendor: FakeVendor) => unknown;

export interface FakeVendorOptions {
  /** `'METHOD /path/:param'` to its handler. */
  readonly routes: Readonly<Record<string, FakeHandler>>;
  /** False refuses the request with `unauthorized` before any route runs. */
  readonly authorize?: (request: FakeRequest) => boolean;
  /** The vendor's answer to missing or wrong credentials; default 401 `{ "error": "unauthorized" }`. */
  readonly unauthorized?: FakeReply;
  /** The vendor's rate-limit answer; default 429 `{ "error": "rate_limited" }` with `Retry-After: 1`. */
  readonly rateLimited?: FakeReply;
}

export interface FakeVendor {
  readonly url: string;
  /** Every request, in order. */
  readonly requests: FakeRequest[];
  /** The requests a route (`'GET /v1/items/:id'`) answered. */
  calls(route: string): FakeRequest[];
  /** The next `count` requests get the rate-limit answer. */
  rateLimit(count: number): void;
  /** Adds or replaces a route (a test's variation of the vendor). */
  route(route: string, handler: FakeHandler): void;
  close(): Promise<void>;
}

interface Route {
  readonly method: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  handler: FakeHandler;
}

const compile = (key: string, handler: FakeHandler): Route => {
  const [method = '', path = ''] = key.split(' ');
  const names: string[] = [];
  const source = path
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { method: method.toUpperCase(), pattern: new RegExp(`^${source}/?$`), names, handler };
};

const parseBody = (raw: string, type: string): unknown => {
  if (raw === '') return null;
  if (/json/i.test(type)) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  if (/x-www-form-urlencoded/i.test(type)) return Object.fromEntries(new URLSearchParams(raw));
  return raw;
};

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const send = (response: ServerResponse, answer: FakeReply) => {
  const headers: Record<string, string> = { ...answer.headers };
  let payload = '';
  if (answer.body !== null && answer.body !== undefined) {
    if (typeof answer.body === 'string') payload = answer.body;
    else {
      payload = JSON.stringify(answer.body);
      headers['content-type'] ??= 'application/json; charset=utf-8';
    }
  }
  response.writeHead(answer.status, headers).end(payload);
};

export const startFakeVendor = async (options: FakeVendorOptions): Promise<FakeVendor> => {
  const routes = new Map<string, Route>();
  for (const [key, handler] of Object.entries(options.routes)) routes.set(key, compile(key, handler));
  const matched = new Map<string, FakeRequest[]>();
  const requests: FakeRequest[] = [];
  let rateLimited = 0;
  let vendor: FakeVendor;

  const server = createServer((incoming, response) => {
    void (async () => {
      const url = new URL(incoming.url ?? '/', 'http://fake.vendor');
      const rawBody = await readBody(incoming);
      const headers = Object.fromEntries(
        Object.entries(incoming.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(', ') : (value ?? ''),
        ]),
      );
      const base = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        queryAll: url.searchParams,
        headers,
        rawBody,
        body: parseBody(rawBody, headers['content-type'] ?? ''),
      };
      const found = [...routes.entries()].flatMap(([key, route]) => {
        const match = route.method === base.method ? route.pattern.exec(base.path) : null;
        return match ? [{ key, route, match }] : [];
      })[0];
      const params = found
        ? Object.fromEntries(found.route.names.map((name, i) => [name, decodeURIComponent(found.match[i + 1] ?? '')]))
        : {};
      const request: FakeRequest = { ...base, params };
      requests.push(request);
      if (rateLimited > 0) {
        rateLimited -= 1;
        return send(response, options.rateLimited ?? reply(429, { error: 'rate_limited' }, { 'retry-after': '1' }));
      }
      if (options.authorize && !options.authorize(request)) {
        return send(response, options.unauthorized ?? reply(401, { error: 'unauthorized' }));
      }
      if (!found) {
        return send(
          response,
          reply(404, { error: 'not_found', message: `No fake route for ${base.method} ${base.path}` }),
        );
      }
      matched.set(found.key, [...(matched.get(found.key) ?? []), request]);
      const answer = await found.route.handler(request, vendor);
      send(response, answer instanceof FakeReply ? answer : reply(200, answer ?? null));
    })().catch((error: unknown) => {
      send(response, reply(500, { error: 'fake_vendor_failed', message: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  vendor = {
    url: `http://127.0.0.1:${port}`,
    requests,
    calls: (route) => matched.get(route) ?? [],
    rateLimit(count) {
      rateLimited = count;
    },
    route(key, handler) {
      routes.set(key, compile(key, handler));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return vendor;
};
