import http from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import type { FuzzRequest } from './routes.js';
import type { Outcome } from './tally.js';
import { FUZZ_BODY_LIMIT } from './world.js';

/**
 * What only a real socket can send: bytes that are not UTF-8, bodies without a length that outgrow
 * the limit, bodies that trickle in, bodies that never finish, and HTTP that is not HTTP.
 */
export type SocketCase =
  | { readonly kind: 'bytes'; readonly chunks: readonly Buffer[]; readonly chunked: boolean; readonly delayMs: number }
  | { readonly kind: 'oversize'; readonly chunkBytes: number; readonly chunks: number; readonly declared: boolean }
  | { readonly kind: 'unfinished'; readonly sentBytes: number; readonly declaredBytes: number | null }
  | { readonly kind: 'aborted'; readonly sentBytes: number }
  | { readonly kind: 'raw'; readonly text: string };

const INVALID_UTF8 = [
  [0xff],
  [0xfe, 0xff],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xc3],
  [0x80],
  [0xf0, 0x9f, 0x92],
  [0x00],
].map((bytes) => Buffer.from(bytes));

/** JSON (or form) text with invalid UTF-8 spliced in, split into chunks anywhere, even inside a character. */
const invalidUtf8Body = fc
  .tuple(
    fc.constantFrom('{"name":"', '{"email":"', '{"query":"', 'SAMLResponse=', '', '{"', '["'),
    fc.array(
      fc.oneof(
        fc.constantFrom(...INVALID_UTF8),
        fc.string({ maxLength: 8 }).map((s) => Buffer.from(s)),
      ),
      {
        minLength: 1,
        maxLength: 8,
      },
    ),
    fc.constantFrom('"}', '', '"]', '&RelayState=x'),
    fc.array(fc.nat({ max: 60 }), { maxLength: 4 }),
  )
  .map(([head, middle, tail, cuts]) => {
    const whole = Buffer.concat([Buffer.from(head), ...middle, Buffer.from(tail)]);
    const points = [...new Set(cuts.map((cut) => cut % (whole.length + 1)))].sort((a, b) => a - b);
    const chunks: Buffer[] = [];
    let from = 0;
    for (const point of points) {
      chunks.push(whole.subarray(from, point));
      from = point;
    }
    chunks.push(whole.subarray(from));
    return chunks.filter((chunk) => chunk.length > 0);
  });

/** Requests that break HTTP/1.1 itself; Node's parser must refuse them and the server keep going. */
const rawRequests = fc.constantFrom(
  'GET / HTTP/1.1\r\nHost: x\r\nX: \u0000\r\n\r\n',
  'GARBAGE\r\n\r\n',
  'POST /api/v1/access-tokens HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  'POST /api/v1/access-tokens HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
  'POST /api/v1/access-tokens HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
  'POST /api/v1/access-tokens HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
  `GET /healthcheck HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`,
  `GET /${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
  'GET /api/v1/flows HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \udcff\r\n\r\n',
  'GET /api/v1/%zz HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET http://evil.test/api/v1/service/info HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /api/v1/service/info HTTP/0.9\r\n\r\n',
  'PATCH /api/v1/flows/x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n',
);

export const socketCase: fc.Arbitrary<SocketCase> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('bytes' as const),
      chunks: invalidUtf8Body,
      chunked: fc.boolean(),
      delayMs: fc.constantFrom(0, 0, 0, 5, 30),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('oversize' as const),
      chunkBytes: fc.integer({ min: 1024, max: FUZZ_BODY_LIMIT / 8 }),
      chunks: fc.integer({ min: 1, max: 12 }),
      declared: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('unfinished' as const),
      sentBytes: fc.nat({ max: 100 }),
      declaredBytes: fc.option(fc.integer({ min: 101, max: FUZZ_BODY_LIMIT }), { nil: null }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('aborted' as const), sentBytes: fc.nat({ max: 100 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('raw' as const), text: rawRequests }) },
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Target {
  readonly host: string;
  readonly port: number;
}

export const targetOf = (url: string): Target => {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port) };
};

/** The connection was closed before an answer (the server may hang up on an oversize body). */
export const CLOSED = 0;

/** Sends a request whose body is written chunk by chunk; `end: false` leaves the body unfinished. */
export const sendOverSocket = (
  target: Target,
  request: Pick<FuzzRequest, 'method' | 'path' | 'headers'>,
  chunks: readonly Buffer[],
  { delayMs = 0, end = true, signal }: { delayMs?: number; end?: boolean; signal?: AbortSignal } = {},
): Promise<Outcome> =>
  new Promise((resolve) => {
    const req = http.request(
      { ...target, method: request.method, path: request.path, headers: request.headers, agent: false, signal },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () => resolve({ status: res.statusCode ?? CLOSED, body: Buffer.concat(parts).toString() }));
        res.on('error', () => resolve({ status: res.statusCode ?? CLOSED }));
      },
    );
    req.on('error', () => resolve({ status: CLOSED }));
    void (async () => {
      for (const chunk of chunks) {
        if (req.destroyed) return;
        req.write(chunk);
        if (delayMs > 0) await sleep(delayMs);
      }
      if (end && !req.destroyed) req.end();
    })();
  });

/**
 * Writes raw bytes to a socket and reads the status line of the answer, if any comes. The client
 * does not half-close (Node's server takes that as the request abandoned): `Connection: close` has
 * the server close once it has answered.
 */
export const sendRaw = (target: Target, text: string): Promise<Outcome> =>
  new Promise((resolve) => {
    const socket = net.connect(target);
    let received = '';
    socket.on('data', (data) => {
      received += data.toString('latin1');
    });
    const done = () => {
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1];
      resolve({ status: status ? Number(status) : CLOSED, body: received.slice(0, 300) });
    };
    socket.on('close', done);
    socket.on('error', () => {});
    const firstLineEnd = text.indexOf('\r\n');
    const closing =
      firstLineEnd < 0 ? text : `${text.slice(0, firstLineEnd)}\r\nConnection: close${text.slice(firstLineEnd)}`;
    socket.write(Buffer.from(closing, 'utf8'));
  });
