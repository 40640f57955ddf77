import { afterAll, describe, expect, it } from 'vitest';
import { createCodeApp } from '../../adapters/apps/code/index.js';
import { createAppCatalog } from '../../adapters/apps/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';

/** Small limits, so that what is contained is contained quickly. */
const tight = createAppCatalog({
  apps: [createCodeApp({ timeoutMs: 500, memoryBytes: 16 * 1024 * 1024, maxOutputLength: 100_000 })],
  allowPrivateNetworks: false,
  logger: new CapturingLogger(),
});
afterAll(() => tight.close());

const outcome = (codeSnippet: string, inputs: unknown = []) =>
  tight
    .runAction({
      appKey: 'code',
      key: 'runJavascript',
      parameters: { inputs, codeSnippet },
      connection: null,
      execution: null,
    })
    .then(
      (r) => ({ output: (r as { output: unknown }).output }),
      (e: Error) => ({ error: `${e.name}: ${e.message}` }),
    );

const TIME = 'CodeError: The code ran longer than 500 ms and was stopped.';
const MEMORY = 'CodeError: The code used more than 16 MiB of memory and was stopped.';

/**
 * Escapes tried from inside the code step: each is refused (an error for the user) or contained
 * (it sees only the sandbox's own world). Expected outcomes are exact, so a change shows.
 */
const CORPUS: readonly (readonly [string, string, unknown])[] = [
  [
    'process',
    'function code() { return process.env }',
    { error: expect.stringMatching(/^CodeError: ReferenceError: 'process' is not defined/) },
  ],
  [
    'require',
    'function code() { return require("fs") }',
    { error: expect.stringMatching(/^CodeError: ReferenceError: 'require' is not defined/) },
  ],
  [
    'Function("return this")',
    'function code() { return typeof Function("return this")().process }',
    { output: 'undefined' },
  ],
  [
    'the async function constructor',
    'async function code() { return await (async function(){}).constructor("return typeof process")() }',
    { output: 'undefined' },
  ],
  [
    'the generator constructor',
    'function code() { return (function*(){}).constructor("yield typeof require")().next().value }',
    { output: 'undefined' },
  ],
  [
    'indirect eval',
    'function code() { return (0, eval)("[typeof process, typeof require, typeof module]") }',
    { output: ['undefined', 'undefined', 'undefined'] },
  ],
  [
    "the global's prototype chain",
    'function code() { return Object.getPrototypeOf(globalThis).constructor.constructor("return typeof process")() }',
    { output: 'undefined' },
  ],
  [
    'import("fs")',
    'async function code() { return Object.keys(await import("fs")) }',
    { error: "CodeError: ReferenceError: could not load module 'fs'" },
  ],
  [
    'import("std") of QuickJS',
    'async function code() { return typeof (await import("std")).popen }',
    { error: "CodeError: ReferenceError: could not load module 'std'" },
  ],
  [
    'import("os") of QuickJS',
    'async function code() { return typeof (await import("os")).exec }',
    { error: "CodeError: ReferenceError: could not load module 'os'" },
  ],
  [
    'a data: URL module',
    'async function code() { return (await import("data:text/javascript,export default 42")).default }',
    { error: expect.stringMatching(/^CodeError: ReferenceError: could not load module/) },
  ],
  [
    'import.meta',
    'function code() { return import.meta }',
    { error: 'CodeError: SyntaxError: import.meta only valid in module code' },
  ],
  [
    'V8 stack hooks',
    'function code() { Error.prepareStackTrace = (e, s) => s.map((f) => f.getFileName()); return new Error("x").stack }',
    { output: expect.stringMatching(/^ {4}at code \(code\.js:1:\d+\)\n$/) },
  ],
  [
    'Atomics.wait',
    'function code() { return Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0) }',
    { error: expect.stringMatching(/^CodeError: ReferenceError: 'Atomics' is not defined/) },
  ],
  [
    'host timers and workers',
    'function code() { return [typeof setTimeout, typeof setInterval, typeof queueMicrotask, typeof Worker, typeof WebAssembly, typeof fetch] }',
    { output: Array(6).fill('undefined') },
  ],
  ['a caller walk', 'function code() { return (function f() { return String(f.caller) })() }', { output: 'undefined' }],
  ['an endless toJSON', 'function code() { return { toJSON() { for (;;) {} } } }', { error: TIME }],
  ['an endless getter in the output', 'function code() { return { get x() { for (;;) {} } } }', { error: TIME }],
  ['a Proxy output', 'function code() { return new Proxy({}, { ownKeys() { for (;;) {} } }) }', { error: TIME }],
  [
    'an endless getter on what is thrown',
    'function code() { throw { name: "E", get message() { for (;;) {} } } }',
    { error: expect.stringMatching(/^CodeError: /) },
  ],
  [
    'a thrown megabyte',
    'function code() { throw new Error("x".repeat(1000000)) }',
    { error: expect.stringMatching(/^CodeError: Error: x{490,500}…/) },
  ],
  [
    'a 2 GiB ArrayBuffer',
    'function code() { return new ArrayBuffer(2 ** 31).byteLength }',
    { error: expect.stringMatching(/^CodeError: RangeError: /) },
  ],
  ['a 512 MiB string', 'function code() { return "x".repeat(2 ** 29).length }', { error: MEMORY }],
  [
    'an output nested 100000 deep',
    'function code() { let a = []; for (let i = 0; i < 1e5; i++) a = [a]; return a }',
    {
      error: expect.stringMatching(
        /^CodeError: (The code ran longer|InternalError: stack overflow|The output cannot be turned into JSON)/,
      ),
    },
  ],
];

describe('code: an escape corpus', () => {
  it.each(CORPUS)('refuses or contains %s', async (_name, snippet, expected) => {
    expect(await outcome(snippet)).toEqual(expected);
  });

  it('keeps a hostile input key and prototype changes inside the sandbox', async () => {
    const snippet = `function code(inputs) {
      inputs.__proto__.polluted = 1;
      Object.prototype.polluted2 = 1;
      Date.now = () => 0;
      String.prototype.toUpperCase = () => "owned";
      return Object.keys(inputs);
    }`;
    expect(
      await outcome(snippet, [
        { key: '__proto__', value: 'x' },
        { key: 'constructor', value: 'y' },
      ]),
    ).toEqual({
      output: ['__proto__', 'constructor'],
    });
  });

  it('leaves the host as it was, and the sandbox usable', async () => {
    const envKeys = Object.keys(process.env).sort();
    for (const [, snippet] of CORPUS) await outcome(snippet);
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect('a'.toUpperCase()).toBe('A');
    expect(Date.now()).toBeGreaterThan(0);
    expect(Object.keys(process.env).sort()).toEqual(envKeys);
    expect(await outcome('function code({ n }) { return Number(n) * 2 }', [{ key: 'n', value: '21' }])).toEqual({
      output: 42,
    });
  }, 60_000);
});
