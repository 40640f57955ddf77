// `npm run measure:binary`: the single executable's size, its time from start to the first answer
// on /healthcheck (with an empty cache folder, then with the folder kept), and its memory idle after
// the start. Build it first (npm run build:binary). Each start is a fresh data and cache folder in a
// temporary directory, on SQLite.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const binary = resolve(process.argv[2] ?? `dist/bin/conveyor-${process.platform}-${process.arch}`);
const WARM_STARTS = 5;
const IDLE_MS = 3000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Polls /healthcheck on a fixed port from the moment of the spawn until it answers 200. */
const start = async (home: string, port: number) => {
  const started = performance.now();
  const child = spawn(binary, ['start'], {
    env: { PATH: '/nonexistent', HOME: home, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const exited = new Promise((done) => child.on('exit', done));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${binary} start ended with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthcheck`)).status === 200) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 5));
  }
  return { child, exited, ms: performance.now() - started };
};

/** Resident memory of the process (VmRSS), in MB. Linux only. */
const rssOf = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  return line?.[1] ? Number(line[1]) / 1024 : Number.NaN;
};

const stop = async ({ child, exited }: Awaited<ReturnType<typeof start>>) => {
  child.kill('SIGTERM');
  await exited;
};

const scratch = mkdtempSync(join(tmpdir(), 'conveyor-measure-'));
try {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const home = join(scratch, 'home');
  const cold = await start(home, port);
  await new Promise((done) => setTimeout(done, IDLE_MS));
  const rss = rssOf(cold.child.pid ?? 0);
  await stop(cold);
  const warm: number[] = [];
  for (let i = 0; i < WARM_STARTS; i++) {
    const started = await start(home, port);
    warm.push(started.ms);
    await stop(started);
  }
  const mb = (statSync(binary).size / 1e6).toFixed(1);
  process.stdout.write(
    [
      `file                 ${binary}`,
      `size                 ${mb} MB`,
      `first start          ${cold.ms.toFixed(0)} ms to /healthcheck (empty cache folder, new SQLite database)`,
      `warm start           ${median(warm).toFixed(0)} ms to /healthcheck (median of ${WARM_STARTS}; cache and database kept)`,
      `RSS idle             ${rss.toFixed(0)} MB, ${IDLE_MS / 1000} s after the first start`,
      '',
    ].join('\n'),
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
