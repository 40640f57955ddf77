import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase, type DialectName, dropSchema } from './databases.js';

export interface ServerProcess {
  readonly child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

/** Starts composition/main.ts as its own process, as `npm start` does after the build. */
export const startServerProcess = (env: Record<string, string>): ServerProcess =>
  startNodeProcess(['--import', 'tsx', 'composition/main.ts'], env);

/** Starts `node <args>` with the test environment and `env`, keeping what it prints. */
export const startNodeProcess = (
  args: readonly string[],
  env: Record<string, string>,
  options: Omit<SpawnOptions, 'env'> = {},
): ServerProcess =>
  spawnServer(process.execPath, args, {
    ...options,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', PORT: '0', LOG_LEVEL: 'info', ...env },
  });

export const BUILT_CLI = resolve('dist/composition/cli.js');

/**
 * Runs the built `conveyor <args>` (`npm run build` first), as an installation runs it: in `cwd`,
 * as the user `uid` when given.
 */
export const startBuiltCli = (
  args: readonly string[],
  env: Record<string, string>,
  options: Omit<SpawnOptions, 'env'> = {},
): ServerProcess => {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run npm run build first`);
  return startNodeProcess([BUILT_CLI, ...args], env, options);
};

interface SpawnOptions {
  readonly env: Record<string, string>;
  readonly cwd?: string;
  readonly uid?: number;
  readonly gid?: number;
}

/** Starts a server program (an installed `conveyor start`, say) with exactly this environment. */
export const spawnServer = (command: string, args: readonly string[], options: SpawnOptions): ServerProcess => {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
};

/** The port the process reports in its "listening" log line. */
export const listeningPort = async (started: ServerProcess, timeoutMs = 20_000): Promise<number> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = /"port":(\d+)/.exec(started.output());
    if (match?.[1]) return Number(match[1]);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the server did not start:\n${started.output()}`);
};

/**
 * A database that processes started one after another can share (SQLite in a temporary file, or
 * a fresh Postgres schema) and a pg-boss schema of its own, as the environment naming them;
 * `cleanups` receives what removes them.
 */
export const processDatabase = async (
  dialect: DialectName,
  cleanups: Array<() => Promise<void> | void>,
): Promise<{ DATABASE_URL: string; QUEUE_PG_BOSS_SCHEMA: string }> => {
  const dir = mkdtempSync(join(tmpdir(), 'conveyor-process-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const database =
    dialect === 'sqlite' ? { url: join(dir, 'conveyor.db'), drop: async () => {} } : await createTestDatabase(dialect);
  cleanups.push(() => database.drop());
  // pg-boss keeps its tables in a schema of its own: one per test, dropped afterwards.
  const bossSchema = `boss_${Math.random().toString(36).slice(2, 10)}`;
  if (dialect === 'postgres') cleanups.push(() => dropSchema(bossSchema));
  return { DATABASE_URL: database.url, QUEUE_PG_BOSS_SCHEMA: bossSchema };
};
