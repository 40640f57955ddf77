import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import releaseSyncPackage from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSSyncVariant,
} from 'quickjs-emscripten-core';
import { packagedFiles } from '../../packaged-files.js';

// Typed as CommonJS (the variant under `default`) but loaded as an ES module (the variant itself).
const releaseSync: QuickJSSyncVariant =
  'default' in releaseSyncPackage ? releaseSyncPackage.default : (releaseSyncPackage as QuickJSSyncVariant);

export interface SandboxLimits {
  /** Wall-clock time for the whole run, promises included. */
  readonly timeoutMs: number;
  /** The engine's whole linear memory: heap, strings, arrays and buffers alike. */
  readonly memoryBytes: number;
  /** The JSON text of the output, in UTF-16 code units. */
  readonly maxOutputLength: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  timeoutMs: 3_000,
  memoryBytes: 64 * 1024 * 1024,
  maxOutputLength: 2 * 1024 * 1024,
};

/** User code failed or broke a limit; the message is meant for the user and never holds a host stack. */
export class CodeError extends Error {
  override readonly name = 'CodeError';
}

const PAGE = 64 * 1024;
/** The engine's own code, data and C stack need this much before any user value exists. */
const BASE_MEMORY = 16 * 1024 * 1024;
const SOURCE = 'code.js';

/** Node has WebAssembly, but the project's type libraries (ES2023, no DOM) do not describe it. */
declare const WebAssembly: {
  readonly Memory: new (descriptor: { readonly initial: number; readonly maximum: number }) => WasmMemory;
  compile(bytes: Uint8Array): Promise<object>;
};

interface WasmMemory {
  grow(pages: number): number;
}

let compiled: Promise<object> | null = null;

const wasmPath = () =>
  packagedFiles()?.quickjsWasm ?? createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');

/** Compiled once per thread; a worker compiles it before it says it is ready, so no run waits for it. */
export const engineModule = () => {
  compiled ??= readFile(wasmPath()).then((bytes) => WebAssembly.compile(bytes));
  return compiled;
};

/**
 * A QuickJS instance of its own, in a WebAssembly memory that cannot grow past the limit. QuickJS's
 * own memory limit is not enough on its own: in this build it checks each allocation's size but
 * does not add up strings and buffers, so only the fixed memory bounds a run. The instance is
 * dropped whole after the run (nothing in it is freed piece by piece), so that no run sees
 * another's data and a run that broke the engine (a native stack overflow) leaves nothing behind.
 */
const freshEngine = async (limits: SandboxLimits) => {
  const memory = new WebAssembly.Memory({
    initial: BASE_MEMORY / PAGE,
    maximum: Math.ceil((BASE_MEMORY + limits.memoryBytes) / PAGE),
  });
  // Growing is the only way memory runs out, and QuickJS does not always manage to say so (it may
  // throw null when it cannot even build the error): a refused growth is what tells.
  let exhausted = false;
  const grow = memory.grow.bind(memory);
  memory.grow = (pages) => {
    try {
      return grow(pages);
    } catch (error) {
      exhausted = true;
      throw error;
    }
  };
  const module = await newQuickJSWASMModuleFromVariant(
    newVariant(releaseSync, { wasmModule: await engineModule(), wasmMemory: memory }),
  );
  const runtime = module.newRuntime();
  // Deep recursion is stopped by QuickJS with a catchable error before it exhausts Node's stack.
  runtime.setMaxStackSize(256 * 1024);
  return { runtime, vm: runtime.newContext(), exhausted: () => exhausted };
};

const MAX_MESSAGE = 500;
const shorten = (text: string) => (text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text);

/** `TypeError: x is not a function (code.js:3:9)`: the user's words and place, nothing of the host. */
const describeThrown = (vm: QuickJSContext, handle: QuickJSHandle): string => {
  const thrown: unknown = vm.dump(handle);
  if (typeof thrown === 'object' && thrown !== null && 'message' in thrown) {
    const { name, message, stack } = thrown as { name?: unknown; message?: unknown; stack?: unknown };
    const place = typeof stack === 'string' ? stack.match(new RegExp(`\\((${SOURCE}:\\d+:\\d+)\\)`))?.[1] : undefined;
    return `${shorten(`${typeof name === 'string' ? name : 'Error'}: ${String(message)}`)}${place ? ` (${place})` : ''}`;
  }
  return `Uncaught ${shorten(typeof thrown === 'string' ? thrown : (JSON.stringify(thrown) ?? String(thrown)))}`;
};

export interface RunRequest {
  readonly source: string;
  readonly inputs: Readonly<Record<string, string>>;
}

/** The pool stops a worker that does not answer in time with the same words the engine would use. */
export const timeLimitError = (limits: SandboxLimits) =>
  new CodeError(`The code ran longer than ${limits.timeoutMs} ms and was stopped.`);

/**
 * Runs `source`, which defines `code(inputs)`, and returns the JSON text of what it returns (awaited):
 * text, so that only JSON leaves the thread that ran the code.
 */
export const runToJson = async (request: RunRequest, limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS) => {
  const { runtime, vm, exhausted } = await freshEngine(limits);
  const deadline = Date.now() + limits.timeoutMs;
  runtime.setInterruptHandler(() => Date.now() > deadline);

  /** A broken limit explains any error that follows it better than the error itself. */
  const brokenLimit = (): CodeError | null => {
    if (Date.now() > deadline) return timeLimitError(limits);
    if (exhausted()) {
      return new CodeError(
        `The code used more than ${limits.memoryBytes / (1024 * 1024)} MiB of memory and was stopped.`,
      );
    }
    return null;
  };
  const fail = (handle: QuickJSHandle, prefix = ''): never => {
    throw brokenLimit() ?? new CodeError(`${prefix}${describeThrown(vm, handle)}`);
  };
  const unwrap = (result: ReturnType<QuickJSContext['evalCode']>) => (result.error ? fail(result.error) : result.value);

  try {
    // Taken before the user's code runs, so that redefining JSON cannot change how data crosses.
    const json = vm.getProp(vm.global, 'JSON');
    const parse = vm.getProp(json, 'parse');
    const stringify = vm.getProp(json, 'stringify');
    const inputs = unwrap(vm.callFunction(parse, vm.undefined, vm.newString(JSON.stringify(request.inputs))));

    unwrap(vm.evalCode(request.source, SOURCE));
    // A global script's `const code = ...` is not a property of globalThis, but is visible to the next script.
    const code = unwrap(vm.evalCode('typeof code === "function" ? code : undefined', 'conveyor.js'));
    if (vm.typeof(code) !== 'function') throw new CodeError('The code must define a function code(inputs).');

    const returned = unwrap(vm.callFunction(code, vm.undefined, inputs));
    const value = awaitInside(vm, runtime, returned, fail);
    if (vm.typeof(value) === 'undefined') return 'null';

    const result = vm.callFunction(stringify, vm.undefined, value);
    const text = result.error ? fail(result.error, 'The output cannot be turned into JSON: ') : result.value;
    if (vm.typeof(text) !== 'string') throw new CodeError('The output must be a JSON value, not a function.');
    const length = vm.getNumber(vm.getProp(text, 'length'));
    if (length > limits.maxOutputLength) {
      throw new CodeError(`The output is ${length} characters of JSON; at most ${limits.maxOutputLength} are kept.`);
    }
    return vm.getString(text);
  } catch (error) {
    // Recursion inside the engine's own C code (parsing, JSON) can exhaust Node's stack first.
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new CodeError('InternalError: stack overflow');
    }
    throw error;
  }
};

/** Runs the engine's job queue until the returned promise settles; user code has no timers to wait for. */
const awaitInside = (
  vm: QuickJSContext,
  runtime: QuickJSRuntime,
  returned: QuickJSHandle,
  fail: (thrown: QuickJSHandle) => never,
): QuickJSHandle => {
  for (;;) {
    const state = vm.getPromiseState(returned);
    if (state.type === 'fulfilled') return state.value;
    if (state.type === 'rejected') return fail(state.error);
    const ran = runtime.executePendingJobs(1000);
    if (ran.error) return fail(ran.error);
    if (ran.value === 0) throw new CodeError('The promise code(inputs) returned never settled.');
  }
};
