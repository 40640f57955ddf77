import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { listen } from '../support/listening.js';
import { POLLUTION_MARK } from './hostile.js';
import { anyRequest, type FuzzRequest, type FuzzRoute, routesOf } from './routes.js';
import { CLOSED, type SocketCase, sendOverSocket, sendRaw, socketCase, type Target, targetOf } from './socket.js';
import { sweepRequests } from './sweep.js';
import { describeRequest, type Outcome, Tally, withTimeout } from './tally.js';
import { type FuzzWorld, startFuzzWorld } from './world.js';

/**
 * Property: whatever a client sends to any route the OpenAPI document lists, by any caller, the
 * server answers within the time-out and never with a 5xx; API errors keep their documented shape;
 * and afterwards the server still works, Object.prototype is untouched and the untouched rows are.
 *
 * FUZZ_RUNS is the number of in-process requests per dialect (a tenth as many go over a socket);
 * FUZZ_SEED replays a run. `npm run test:fuzz` runs it at its full size.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1500);
const SOCKET_RUNS = Math.max(40, Math.round(RUNS / 10));
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;
/** Deletions use up the real ids: new rows every so many requests keep them coming. */
const REPLENISH_EVERY = 200;
const PHASE_TIMEOUT_MS = 60_000 + RUNS * 30;

const prototypeNames = () => Object.getOwnPropertyNames(Object.prototype).sort();
const PROTOTYPE_BEFORE = prototypeNames();
const total = new Tally();

const isApiError = (body: string | undefined) => {
  try {
    const parsed = JSON.parse(body ?? '');
    return typeof parsed?.errors === 'object' && parsed.errors !== null && typeof parsed?.meta?.type === 'string';
  } catch {
    return false;
  }
};

/** Checks the rules every answer keeps, beyond its status. */
const checkAnswer = (tally: Tally, request: FuzzRequest, outcome: Outcome, { shape = true } = {}) => {
  const line = describeRequest(request);
  if ((Object.prototype as Record<string, unknown>)[POLLUTION_MARK] !== undefined) {
    tally.problem(line, 'Object.prototype was polluted');
    delete (Object.prototype as Record<string, unknown>)[POLLUTION_MARK];
  }
  if (outcome === 'hang' || outcome.status < 400 || outcome.status === CLOSED) return;
  if (shape && request.path.startsWith('/api/v1/') && !isApiError(outcome.body))
    tally.problem(line, `${outcome.status} not in the error shape: ${outcome.body?.slice(0, 200)}`);
};

const sendInProcess = async (world: FuzzWorld, request: FuzzRequest): Promise<Outcome> => {
  const res = await world.instance.conveyor.app.request(request.path, {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined && { body: request.body }),
  });
  return { status: res.status, body: await res.text() };
};

/** One socket case; an unfinished or aborted body is the client's choice, so its answer is not awaited. */
const runSocketCase = async (
  target: Target,
  request: FuzzRequest,
  fuzzCase: SocketCase,
): Promise<{ outcome: Outcome; label: string }> => {
  const headers = { ...request.headers };
  delete headers['content-length'];
  const method = request.method === 'GET' ? 'POST' : request.method;
  const label = `${fuzzCase.kind} ${method} ${request.route.split(' ')[1]}`;
  switch (fuzzCase.kind) {
    case 'bytes': {
      const length = fuzzCase.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
      if (!fuzzCase.chunked) headers['content-length'] = String(length);
      const outcome = await sendOverSocket(target, { method, path: request.path, headers }, fuzzCase.chunks, {
        delayMs: fuzzCase.delayMs,
      });
      return { outcome, label };
    }
    case 'oversize': {
      const size = fuzzCase.chunkBytes * fuzzCase.chunks;
      if (fuzzCase.declared) headers['content-length'] = String(size);
      const chunks = Array.from({ length: fuzzCase.chunks }, () => Buffer.alloc(fuzzCase.chunkBytes, 'a'));
      // A route may refuse the caller before it reads the body: any 4xx will do, or a hang-up.
      return { outcome: await sendOverSocket(target, { method, path: request.path, headers }, chunks), label };
    }
    case 'unfinished':
    case 'aborted': {
      if (fuzzCase.kind === 'unfinished' && fuzzCase.declaredBytes !== null)
        headers['content-length'] = String(fuzzCase.declaredBytes);
      const controller = new AbortController();
      const pending = sendOverSocket(
        target,
        { method, path: request.path, headers },
        [Buffer.alloc(fuzzCase.sentBytes, '{')],
        {
          end: false,
          signal: controller.signal,
        },
      );
      // While that body is held open, the server must go on answering everyone else.
      const health = await withTimeout(
        sendOverSocket(target, { method: 'GET', path: '/healthcheck', headers: {} }, []),
      );
      controller.abort();
      await pending;
      return { outcome: health === 'hang' || health.status === 200 ? health : { status: 500, body: 'health' }, label };
    }
    case 'raw':
      return { outcome: await sendRaw(target, fuzzCase.text), label };
  }
};

describe.each(DIALECTS)('fuzzing every route (%s)', (dialect) => {
  let world: FuzzWorld;
  let routes: FuzzRoute[];
  const tally = new Tally();

  beforeAll(async () => {
    world = await startFuzzWorld(dialect);
    const document = await world.instance.conveyor.app.request('/api/openapi.json');
    routes = routesOf(await document.json());
  }, 60_000);
  afterAll(async () => {
    total.add(tally);
    console.log(`${tally.summary(`${dialect}, seed ${SEED}`)}; routes hit: ${tally.routesHit.size}`);
    await world?.instance.close();
  });

  const report = () =>
    tally.findings
      .slice(0, Number(process.env.FUZZ_REPORT ?? 15))
      .map((finding) => `${finding.problem}\n    ${finding.request}`)
      .join('\n');

  it(
    'answers generated and hostile requests to every route in-process with a 4xx, never a 5xx or a hang',
    async () => {
      expect(routes.length).toBeGreaterThan(100);
      await fc.assert(
        fc.asyncProperty(anyRequest(routes, world.context), async (request) => {
          if (tally.requests % REPLENISH_EVERY === REPLENISH_EVERY - 1) await world.replenish();
          const outcome = await withTimeout(sendInProcess(world, request));
          tally.record(request.route, describeRequest(request), outcome);
          checkAnswer(tally, request, outcome);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      expect(report()).toBe('');
      // Every route was tried: a route the document lists but the generator missed would go unfuzzed.
      // (A run too small to reach every route by chance skips the check.)
      if (RUNS >= 10 * routes.length)
        expect(routes.filter((route) => !tally.routesHit.has(`${route.method} ${route.template}`)).length).toBe(0);
    },
    PHASE_TIMEOUT_MS,
  );

  it(
    'answers every field of every JSON body given each kind of hostile value with a 4xx or a 2xx',
    async () => {
      await world.replenish();
      for (const request of sweepRequests(routes, world.context, world.adminHeaders)) {
        const outcome = await withTimeout(sendInProcess(world, request));
        tally.record(request.route, describeRequest(request), outcome);
        checkAnswer(tally, request, outcome);
      }
      expect(report()).toBe('');
    },
    PHASE_TIMEOUT_MS,
  );

  it(
    'survives bodies only a socket can send: invalid UTF-8, chunked oversize, unfinished, aborted, malformed HTTP',
    async () => {
      const server = await listen(world.instance);
      const target = targetOf(server.url);
      try {
        const bodied = routes.filter((route) => route.method !== 'GET');
        await fc.assert(
          fc.asyncProperty(anyRequest(bodied, world.context), socketCase, async (request, fuzzCase) => {
            const result = await withTimeout(runSocketCase(target, request, fuzzCase));
            const { outcome, label } = result === 'hang' ? { outcome: result, label: fuzzCase.kind } : result;
            tally.record(label, `${fuzzCase.kind} ${describeRequest(request)}`, outcome);
            checkAnswer(tally, request, outcome, { shape: false });
          }),
          { numRuns: SOCKET_RUNS, seed: SEED, endOnFailure: true },
        );
      } finally {
        await server.close();
      }
      expect(report()).toBe('');
    },
    PHASE_TIMEOUT_MS,
  );

  it('still answers as before, with Object.prototype and the rows it was not told about unchanged', async () => {
    const { instance, adminToken, userToken, sentinel } = world;
    expect(prototypeNames()).toEqual(PROTOTYPE_BEFORE);
    expect(({} as Record<string, unknown>)[POLLUTION_MARK]).toBeUndefined();
    expect((await instance.conveyor.app.request('/healthcheck')).status).toBe(200);
    const sentinelNow = await instance.request('GET', `/flows/${sentinel.flowId}`, { token: adminToken });
    expect(sentinelNow.status).toBe(200);
    expect(sentinelNow.body.data).toEqual(sentinel.flow);
    const found = await instance.request('GET', '/flows?name=Sentinel', { token: adminToken });
    expect(found.body.data.map((flow: { id: string }) => flow.id)).toContain(sentinel.flowId);
    // The fuzzer made many flows: each on the first page reads back whole.
    const flows = await instance.request('GET', '/flows?perPage=100', { token: adminToken });
    expect(flows.status).toBe(200);
    expect(flows.body.data.length).toBeLessThanOrEqual(100);
    for (const flow of flows.body.data) {
      expect(typeof flow.name).toBe('string');
      const one = await instance.request('GET', `/flows/${flow.id}`, { token: adminToken });
      expect(one.status, `GET /flows/${flow.id}`).toBe(200);
      expect(Array.isArray(one.body.data.steps)).toBe(true);
    }
    const me = await instance.request('GET', '/users/me', { token: userToken });
    expect(me.status).toBe(200);
    const users = await instance.request('GET', '/admin/users?perPage=100', { token: adminToken });
    expect(users.status).toBe(200);
    for (const user of users.body.data) expect(user.email).toMatch(/@/);
    const executions = await instance.request('GET', '/executions?perPage=100', { token: adminToken });
    expect(executions.status).toBe(200);
    // Nothing the server logged as an unhandled error, even for clients that had hung up.
    expect(
      world.logger.errors.map((entry) => `${entry.message} ${JSON.stringify(entry.fields).slice(0, 300)}`),
    ).toEqual([]);
  });
});

afterAll(() => {
  console.log(total.summary('total'));
});
