import { afterAll, describe, expect, it } from 'vitest';
import { createCodeApp } from '../../adapters/apps/code/index.js';
import { builtInApps, builtInAppsWith, createAppCatalog, type InProcessAppCatalog } from '../../adapters/apps/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';

const catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
/** Small limits, so that the limit tests are quick. */
const tight = createAppCatalog({
  apps: [createCodeApp({ timeoutMs: 300, memoryBytes: 16 * 1024 * 1024, maxOutputLength: 10_000 })],
  allowPrivateNetworks: false,
  logger: new CapturingLogger(),
});
/** Little memory but time enough, so that memory bombs meet the memory limit first. */
const small = createAppCatalog({
  apps: [createCodeApp({ timeoutMs: 20_000, memoryBytes: 16 * 1024 * 1024 })],
  allowPrivateNetworks: false,
  logger: new CapturingLogger(),
});
/** A second of endless loop: long enough that a blocked event loop could not go unseen. */
const second = createAppCatalog({
  apps: [createCodeApp({ timeoutMs: 1000 })],
  allowPrivateNetworks: false,
  logger: new CapturingLogger(),
});
afterAll(async () => {
  await catalog.close();
  await tight.close();
  await small.close();
  await second.close();
});

/** Outside a flow's execution unless `flowId` names one. */
const run = (
  codeSnippet: string,
  inputs: unknown = [],
  on: InProcessAppCatalog = catalog,
  signal?: AbortSignal,
  flowId?: string,
) =>
  on.runAction({
    appKey: 'code',
    key: 'runJavascript',
    parameters: { inputs, codeSnippet },
    connection: null,
    execution: flowId
      ? { id: `run of ${flowId}`, flowId, stepId: 'step', testRun: false, idempotencyKey: 'key' }
      : null,
    ...(signal && { signal }),
  });

const output = async (codeSnippet: string, inputs: unknown = []) =>
  ((await run(codeSnippet, inputs)) as { output: unknown }).output;

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the code to fail');
    },
    (error: Error) => error,
  );

describe('code: runJavascript', () => {
  it('passes the inputs as an object and returns what code(inputs) returns', async () => {
    const inputs = [
      { key: 'name', value: 'Ada' },
      { key: 'count', value: 3 },
    ];
    expect(await output('function code(inputs) { return { hi: "Hello " + inputs.name, inputs } }', inputs)).toEqual({
      hi: 'Hello Ada',
      inputs: { name: 'Ada', count: '3' },
    });
  });

  it('awaits an async code(inputs), also when declared with const', async () => {
    const snippet = `const code = async ({ n }) => {
      const values = await Promise.all([1, 2, 3].map(async (x) => x * Number(n)));
      return values.reduce((a, b) => a + b);
    };`;
    expect(await output(snippet, [{ key: 'n', value: '2' }])).toBe(12);
  });

  it('returns null for no result, and plain JSON values as they are', async () => {
    expect(await output('function code() {}')).toBeNull();
    expect(await output('function code() { return [1, "two", null, true, { d: new Date(0) }] }')).toEqual([
      1,
      'two',
      null,
      true,
      { d: '1970-01-01T00:00:00.000Z' },
    ]);
  });

  it('reports the user’s error with its place and no host stack', async () => {
    const error = await failure(run('function code(inputs) {\n  return inputs.missing.deeper;\n}'));
    expect(error.name).toBe('CodeError');
    expect(error.message).toMatch(/^TypeError: cannot read property 'deeper' of undefined \(code\.js:2:\d+\)$/);
    expect(error.message).not.toMatch(/node_modules|sandbox|\.ts|wasm/);
    expect((await failure(run('function code() { throw "plain words" }'))).message).toBe('Uncaught plain words');
    expect((await failure(run('function code() { return Promise.reject(new RangeError("no")) }'))).message).toMatch(
      /^RangeError: no/,
    );
  });

  it('reports syntax errors and a missing code function', async () => {
    expect((await failure(run('function code( {'))).message).toMatch(/^SyntaxError: /);
    expect((await failure(run('const answer = 42;'))).message).toBe('The code must define a function code(inputs).');
  });

  it('refuses output that is not JSON', async () => {
    expect((await failure(run('function code() { return 1n }'))).message).toMatch(
      /^The output cannot be turned into JSON: /,
    );
    expect((await failure(run('function code() { const a = {}; a.a = a; return a }'))).message).toMatch(
      /^The output cannot be turned into JSON: TypeError: circular reference/,
    );
    expect((await failure(run('function code() { return () => 1 }'))).message).toBe(
      'The output must be a JSON value, not a function.',
    );
  });

  it('keeps nothing between runs', async () => {
    await output('globalThis.leak = "secret"; function code() { Object.prototype.shared = 1 }');
    expect(await output('function code() { return [typeof leak, typeof ({}).shared] }')).toEqual([
      'undefined',
      'undefined',
    ]);
  });
});

describe('code: the sandbox holds', () => {
  it('offers no Node, module loader, timers or network', async () => {
    const probe = `function code() {
      return [typeof process, typeof require, typeof module, typeof globalThis.process, typeof fetch,
        typeof setTimeout, typeof XMLHttpRequest, typeof WebAssembly, typeof Buffer, typeof console];
    }`;
    expect(await output(probe)).toEqual(Array(10).fill('undefined'));
  });

  it('gives the Function-constructor trick only the sandbox’s own global', async () => {
    expect(await output('function code() { return this.constructor.constructor("return typeof process")() }')).toBe(
      'undefined',
    );
    const error = await failure(run('function code() { return constructor.constructor("return process")().env }'));
    expect(error.message).toMatch(/^ReferenceError: 'process' is not defined/);
    expect(
      await output(
        'function code() { return Object.getOwnPropertyNames(globalThis).filter((n) => /process|require|host|node/i.test(n)) }',
      ),
    ).toEqual([]);
  });

  it('cannot import modules', async () => {
    const error = await failure(
      run('async function code() { const fs = await import("fs"); return fs.readFileSync("/etc/passwd", "utf8") }'),
    );
    expect(error.name).toBe('CodeError');
    expect(error.message).not.toContain('root:');
  });

  it('cannot pollute the host’s prototypes through its output', async () => {
    const result = await output(`function code() {
      Object.prototype.polluted = "inside";
      return JSON.parse('{"__proto__": {"polluted": "host"}, "constructor": {"prototype": {"polluted": "host"}}}');
    }`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result as object)).toEqual(['__proto__', 'constructor']);
  });

  it('stops an endless loop at the time limit', async () => {
    const started = Date.now();
    const error = await failure(run('function code() { while (true) {} }', [], tight));
    expect(error.message).toBe('The code ran longer than 300 ms and was stopped.');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('stops an endless promise chain at the time limit, and tells a promise that never settles', async () => {
    const chain = await failure(run('async function code() { for (;;) await null }', [], tight));
    expect(chain.message).toBe('The code ran longer than 300 ms and was stopped.');
    const stuck = await failure(run('function code() { return new Promise(() => {}) }', [], tight));
    expect(stuck.message).toBe('The promise code(inputs) returned never settled.');
  });

  it('leaves the event loop free while code computes until its limit', async () => {
    const gaps: number[] = [];
    let last = performance.now();
    let ticking = true;
    const tick = () => {
      const now = performance.now();
      gaps.push(now - last);
      last = now;
      if (ticking) setTimeout(tick, 5);
    };
    setTimeout(tick, 5);
    const error = await failure(run('function code() { for (;;) {} }', [], second));
    ticking = false;
    expect(error.message).toBe('The code ran longer than 1000 ms and was stopped.');
    expect(gaps.length).toBeGreaterThan(20);
    expect(Math.max(...gaps)).toBeLessThan(250);
  });

  it('runs several snippets at once', async () => {
    const outputs = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((name) =>
        output('async function code({ name }) { await null; return name.toUpperCase() }', [
          { key: 'name', value: name },
        ]),
      ),
    );
    expect(outputs).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('stops an endless loop with the default limit of the built-in app too', async () => {
    const error = await failure(run('function code() { for (;;) {} }'));
    expect(error.message).toBe('The code ran longer than 3000 ms and was stopped.');
  });

  it('does not start when the run is already cancelled', async () => {
    const error = await failure(run('function code() { for (;;) {} }', [], catalog, AbortSignal.abort()));
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  it.each([
    ['typed arrays', 'const keep = []; for (;;) keep.push(new Uint8Array(1024 * 1024));'],
    ['arrays', 'const keep = []; for (;;) keep.push(new Array(100000).fill(0));'],
    ['strings', 'const keep = []; for (let i = 0; ; i++) keep.push(String(i).repeat(100000).toUpperCase());'],
    ['objects', 'const keep = []; for (;;) keep.push({ a: 1, b: [1, 2, 3] });'],
    ['one huge string', 'let s = "x"; for (;;) s = (s + s).toUpperCase();'],
  ])('stops a memory bomb of %s at the memory limit', async (_what, body) => {
    const started = Date.now();
    const error = await failure(run(`function code() { ${body} }`, [], small));
    expect(error.message).toBe('The code used more than 16 MiB of memory and was stopped.');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('stops deep recursion, in user code and in the engine’s own parser', async () => {
    expect((await failure(run('function code() { const f = () => f(); return f() }', [], tight))).message).toMatch(
      /^InternalError: stack overflow/,
    );
    const nested = await failure(run('function code() { return JSON.parse("[".repeat(200000)) }', [], tight));
    expect(nested.message).toMatch(/stack overflow/);
    const source = await failure(
      run(`function code() { return ${'('.repeat(100000)}1${')'.repeat(100000)} }`, [], tight),
    );
    expect(source.message).toMatch(/stack overflow/);
    expect(await output('function code() { return 1 + 1 }')).toBe(2);
  });

  it('refuses a huge output', async () => {
    const error = await failure(run('function code() { return "x".repeat(50000) }', [], tight));
    expect(error.message).toBe('The output is 50002 characters of JSON; at most 10000 are kept.');
  });
});

describe('code: the size of the sandbox pool, as an instance sets it', () => {
  it('runs code steps one at a time with one worker (two would run two flows’ steps side by side)', async () => {
    const busy = 'function code() { const end = Date.now() + 400; while (Date.now() < end) {} return 1; }';
    const elapsed = async (codeWorkers: number) => {
      const sized = createAppCatalog({
        apps: builtInAppsWith({ codeWorkers }),
        allowPrivateNetworks: false,
        logger: new CapturingLogger(),
      });
      try {
        await run('function code() { return 0; }', [], sized); // starts the pool's first worker
        const started = performance.now();
        await Promise.all([run(busy, [], sized, undefined, 'flow-a'), run(busy, [], sized, undefined, 'flow-b')]);
        return performance.now() - started;
      } finally {
        await sized.close();
      }
    };
    // One worker cannot run two 400 ms snippets in less than their sum.
    expect(await elapsed(1)).toBeGreaterThanOrEqual(800);
  });

  it('keeps one of two workers for other flows: one flow’s two code steps run one after the other', async () => {
    const busy = 'function code() { const end = Date.now() + 400; while (Date.now() < end) {} return 1; }';
    const sized = createAppCatalog({
      apps: builtInAppsWith({ codeWorkers: 2 }),
      allowPrivateNetworks: false,
      logger: new CapturingLogger(),
    });
    try {
      await Promise.all([
        run('function code() { return 0; }', [], sized, undefined, 'warm-a'),
        run('function code() { return 0; }', [], sized, undefined, 'warm-b'),
      ]);
      const started = performance.now();
      await Promise.all([run(busy, [], sized, undefined, 'flow-a'), run(busy, [], sized, undefined, 'flow-a')]);
      expect(performance.now() - started).toBeGreaterThanOrEqual(800);
    } finally {
      await sized.close();
    }
  });
});
