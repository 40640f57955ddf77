import { execFile } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CodeError } from '../../adapters/apps/code/index.js';
import { createSandboxPool, type SandboxPool } from '../../adapters/apps/code/sandbox-pool.js';

const limits = { timeoutMs: 300, memoryBytes: 16 * 1024 * 1024, maxOutputLength: 10_000 };
const long = { ...limits, timeoutMs: 60_000 };
const unruly = new URL('./support/unruly-sandbox-worker.ts', import.meta.url);
const root = fileURLToPath(new URL('../../', import.meta.url));

const pools: SandboxPool[] = [];
const pool = (options: Parameters<typeof createSandboxPool>[0] = {}) => {
  const created = createSandboxPool(options);
  pools.push(created);
  return created;
};
afterAll(() => Promise.all(pools.map((p) => p.close())));

const snippet = (source: string) => ({ source, inputs: {} });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the run to fail');
    },
    (error: Error) => error,
  );

/** Process CPU time over a quiet moment: a thread still spinning somewhere would use about all of it. */
const cpuMsDuring = async (ms: number) => {
  const start = process.cpuUsage();
  await sleep(ms);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

describe('code: the worker pool', () => {
  it('runs concurrent runs, more than it has workers, each with its own inputs', async () => {
    const two = pool({ size: 2 });
    const outputs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        two.run(
          {
            source: 'function code({ n }) { let s = 0; for (let i = 0; i < 1e5; i++) s += i % 7; return [n, s] }',
            inputs: { n: String(i) },
          },
          limits,
        ),
      ),
    );
    expect(outputs).toEqual(Array.from({ length: 8 }, (_, i) => [String(i), 299_995]));
  });

  it('serves waiting runs in the order they came', async () => {
    const one = pool({ size: 1 });
    const finished: number[] = [];
    await Promise.all(
      [0, 1, 2, 3].map((i) => one.run(snippet(`function code() { return ${i} }`), limits).then(() => finished.push(i))),
    );
    expect(finished).toEqual([0, 1, 2, 3]);
  });

  it('refuses runs beyond its waiting line', async () => {
    const one = pool({ size: 1, maxQueued: 1 });
    // Until the worker is ready, the first run waits in line too.
    expect(await one.run(snippet('function code() { return "warm" }'), limits)).toBe('warm');
    const running = failure(one.run(snippet('function code() { for (;;) {} }'), limits));
    const waiting = one.run(snippet('function code() { return "waited" }'), limits);
    const refused = await failure(one.run(snippet('function code() { return 1 }'), limits));
    expect(refused.message).toBe('Too many code steps are waiting to run (1); try again later.');
    expect((await running).message).toBe('The code ran longer than 300 ms and was stopped.');
    expect(await waiting).toBe('waited');
  });

  it('keeps a worker for other flows while one flow’s 30 runs compute until their limit', async () => {
    const timeLimit = { ...limits, timeoutMs: 1500 };
    const two = pool({ size: 2 });
    // Both workers started, so that what is measured is waiting, not starting.
    await Promise.all([
      two.run(snippet('function code() { return 1 }'), limits, { group: 'warm-1' }),
      two.run(snippet('function code() { return 2 }'), limits, { group: 'warm-2' }),
    ]);
    const runaway = Array.from({ length: 30 }, () =>
      failure(two.run(snippet('function code() { for (;;) {} }'), timeLimit, { group: 'flow-a' })),
    );
    await sleep(100);
    const started = performance.now();
    expect(await two.run(snippet('function code() { return "b" }'), timeLimit, { group: 'flow-b' })).toBe('b');
    // Without a worker kept for it, flow B would wait for flow A's runs: fifteen time limits.
    expect(performance.now() - started).toBeLessThan(timeLimit.timeoutMs);
    expect((await runaway[0])?.message).toBe('The code ran longer than 1500 ms and was stopped.');
    await two.close();
    await Promise.all(runaway);
  });

  it('gives a free worker to the flow holding the fewest, in turns, not to the longest line', async () => {
    const one = pool({ size: 1 });
    expect(await one.run(snippet('function code() { return "warm" }'), limits)).toBe('warm');
    const finished: string[] = [];
    const run = (group: string, name: string, source = `function code() { return "${name}" }`) =>
      one.run(snippet(source), limits, { group }).then(
        () => finished.push(name),
        () => finished.push(name),
      );
    await Promise.all([
      run('flow-a', 'a1', 'function code() { for (;;) {} }'),
      run('flow-a', 'a2'),
      run('flow-a', 'a3'),
      run('flow-b', 'b1'),
      run('flow-a', 'a4'),
      run('flow-c', 'c1'),
      run('flow-b', 'b2'),
    ]);
    expect(finished).toEqual(['a1', 'a2', 'b1', 'c1', 'a3', 'b2', 'a4']);
  });

  it('refuses runs beyond a flow’s waiting line, not another flow’s', async () => {
    const one = pool({ size: 1, maxQueued: 1 });
    expect(await one.run(snippet('function code() { return "warm" }'), limits)).toBe('warm');
    const running = failure(one.run(snippet('function code() { for (;;) {} }'), limits, { group: 'flow-a' }));
    const waiting = one.run(snippet('function code() { return "a" }'), limits, { group: 'flow-a' });
    const refused = await failure(one.run(snippet('function code() { return 1 }'), limits, { group: 'flow-a' }));
    expect(refused.message).toBe('Too many code steps are waiting to run (1); try again later.');
    expect(await one.run(snippet('function code() { return "b" }'), limits, { group: 'flow-b' })).toBe('b');
    expect((await running).message).toBe('The code ran longer than 300 ms and was stopped.');
    expect(await waiting).toBe('a');
  });

  it('ends a worker that does not answer after the time limit, with the time-limit error, and replaces it', async () => {
    const hung = pool({ size: 1, graceMs: 200, workerUrl: unruly });
    expect(await hung.run(snippet('function code() { return "warm" }'), limits)).toBe('warm');
    const started = Date.now();
    const error = await failure(hung.run(snippet('hang the thread'), limits));
    expect(error).toBeInstanceOf(CodeError);
    expect(error.message).toBe('The code ran longer than 300 ms and was stopped.');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await hung.run(snippet('function code() { return "next" }'), limits)).toBe('next');
    expect(await cpuMsDuring(400)).toBeLessThan(200);
  });

  it('fails only the run a dead worker had, and replaces the worker', async () => {
    const two = pool({ size: 2, workerUrl: unruly });
    const [dead, alive] = await Promise.allSettled([
      two.run(snippet('end the thread'), limits),
      two.run(snippet('function code() { let s = 0; for (let i = 0; i < 1e6; i++) s += 1; return s }'), limits),
    ]);
    expect(dead).toMatchObject({
      status: 'rejected',
      reason: { message: 'The code sandbox stopped unexpectedly; the run was not finished.' },
    });
    expect(alive).toEqual({ status: 'fulfilled', value: 1e6 });
    expect(await two.run(snippet('function code() { return "next" }'), limits)).toBe('next');
  });

  it('fails a cancelled run at once and ends its worker', async () => {
    const one = pool({ size: 1 });
    const controller = new AbortController();
    const running = failure(one.run(snippet('function code() { for (;;) {} }'), long, { signal: controller.signal }));
    await sleep(300);
    const aborted = Date.now();
    controller.abort();
    const error = await running;
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(Date.now() - aborted).toBeLessThan(100);
    expect(await one.run(snippet('function code() { return "next" }'), limits)).toBe('next');
    expect(await cpuMsDuring(400)).toBeLessThan(200);
  });

  it('drops a cancelled run from the waiting line without waiting for a worker', async () => {
    const one = pool({ size: 1 });
    const running = failure(one.run(snippet('function code() { for (;;) {} }'), { ...limits, timeoutMs: 2000 }));
    const controller = new AbortController();
    const waiting = failure(one.run(snippet('function code() { return 1 }'), limits, { signal: controller.signal }));
    const reason = new Error('cancelled by the test');
    setTimeout(() => controller.abort(reason), 100);
    const started = Date.now();
    expect(await waiting).toBe(reason);
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await running).message).toBe('The code ran longer than 2000 ms and was stopped.');
  });

  it('fails runs, without hanging, when its worker cannot start', async () => {
    const broken = pool({ size: 1, workerUrl: new URL('./support/no-such-worker.js', import.meta.url) });
    for (const attempt of [1, 2]) {
      const error = await failure(broken.run(snippet(`function code() { return ${attempt} }`), limits));
      expect(error.message).toMatch(/^The code sandbox could not start: .*no-such-worker/);
    }
  });

  it('refuses runs once closed', async () => {
    const closing = pool({ size: 1 });
    const running = failure(closing.run(snippet('function code() { for (;;) {} }'), long));
    await closing.close();
    expect((await running).message).toBe('The code sandbox is closed.');
    expect((await failure(closing.run(snippet('function code() {}'), limits))).message).toBe(
      'The code sandbox is closed.',
    );
  });

  it('does not keep a process alive once its runs are done', async () => {
    const script = `import { createSandboxPool } from './adapters/apps/code/sandbox-pool.ts';
      const pool = createSandboxPool({ size: 2 });
      const limits = { timeoutMs: 1000, memoryBytes: 16 * 1024 * 1024, maxOutputLength: 100 };
      const outputs = await Promise.all(['a', 'b', 'c'].map((n) => pool.run({ source: 'function code(i) { return i.n }', inputs: { n } }, limits)));
      process.stdout.write(JSON.stringify(outputs));`;
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: root, timeout: 20_000 },
        (error, out) => (error ? reject(error) : resolve(out)),
      );
    });
    expect(stdout).toBe('["a","b","c"]');
  });
});
