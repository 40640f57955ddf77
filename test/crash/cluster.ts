import type { DialectName } from '../support/databases.js';
import { listeningPort, type ServerProcess, startNodeProcess } from '../support/server-process.js';

/** A Conveyor process of the crash suite: the server (webhooks, and flows) or a worker. */
export interface Member {
  readonly name: string;
  readonly kind: 'server' | 'worker';
  process: ServerProcess | null;
  /** Set while the suite itself is killing it, so that its exit is not counted as a crash. */
  killing: boolean;
}

/** An exit nobody asked for: a process that did not survive what happened around it. */
export interface UnexpectedExit {
  readonly name: string;
  readonly code: number | null;
  readonly output: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The environment of the crash suite's processes, on `database` (`processDatabase`'s). */
export const crashEnvironment = (dialect: DialectName, database: Record<string, string>): Record<string, string> => ({
  ...database,
  ENCRYPTION_KEY: 'c'.repeat(64),
  ALLOW_PRIVATE_NETWORKS: 'true',
  LOG_LEVEL: 'info',
  // Short leases, so that a killed process's runs are taken over within the cycles.
  EXECUTION_LEASE_SECONDS: '1',
  QUEUE_LEASE_SECONDS: '5',
  QUEUE_POLL_INTERVAL_MS: '100',
  WORKER_CONCURRENCY: '8',
  DATABASE_POOL_TIMEOUT_MS: '2000',
  ...(dialect === 'postgres' && { QUEUE: 'pg-boss' }),
});

/**
 * The server and workers of one database, run from the build (dist/, as `conveyor start` and
 * `conveyor worker`), killed with SIGKILL and started again by the suite. `base` is the server's
 * current address (a restarted server listens on a new port).
 */
export const createCluster = (env: Record<string, string>, workers: number) => {
  const members: Member[] = [
    { name: 'server', kind: 'server', process: null, killing: false },
    ...Array.from({ length: workers }, (_, i) => ({
      name: `worker ${i + 1}`,
      kind: 'worker' as const,
      process: null,
      killing: false,
    })),
  ];
  const unexpectedExits: UnexpectedExit[] = [];
  const everyProcess: Array<{ name: string; process: ServerProcess }> = [];
  let base = '';

  const launch = async (member: Member) => {
    for (let attempt = 1; ; attempt++) {
      const started = startNodeProcess(
        ['--enable-source-maps', 'dist/composition/cli.js', member.kind === 'server' ? 'start' : 'worker'],
        env,
      );
      member.process = started;
      member.killing = false;
      everyProcess.push({ name: member.name, process: started });
      void started.exited.then((code) => {
        if (member.process === started && !member.killing)
          unexpectedExits.push({ name: member.name, code, output: started.output().slice(-4000) });
      });
      try {
        if (member.kind === 'server') base = `http://127.0.0.1:${await listeningPort(started)}`;
        else await readyWorker(started);
        return;
      } catch (error) {
        // A start can fail while the database restarts: try again, a few times.
        member.killing = true;
        started.child.kill('SIGKILL');
        await started.exited;
        member.process = null;
        if (attempt >= 5) throw error;
        await sleep(1000);
      }
    }
  };

  const readyWorker = async (started: ServerProcess) => {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (started.output().includes('Conveyor worker running')) return;
      if (started.child.exitCode !== null || started.child.signalCode !== null) break;
      await sleep(25);
    }
    throw new Error(`the worker did not start:\n${started.output()}`);
  };

  const running = (member: Member) =>
    member.process !== null && member.process.child.exitCode === null && member.process.child.signalCode === null;

  return {
    members,
    unexpectedExits,
    base: () => base,
    /** The running member whose process has this id, if any. */
    withPid: (pid: number) => members.find((member) => running(member) && member.process?.child.pid === pid),
    /** The error and fatal log lines every process printed, with the process's name. */
    errorLines: () =>
      everyProcess.flatMap(({ name, process }) =>
        process
          .output()
          .split('\n')
          .filter((line) => /"level":(50|60)/.test(line))
          .map((line) => `${name}: ${line}`),
      ),
    /** Starts every member that is not running (killed, crashed, or never started). */
    async startMissing() {
      for (const member of members) if (!running(member)) await launch(member);
    },
    /** Kills a member with SIGKILL and waits for its end. */
    async kill(member: Member) {
      const current = member.process;
      if (!current || !running(member)) return;
      member.killing = true;
      current.child.kill('SIGKILL');
      await current.exited;
    },
    async stopAll() {
      for (const member of members) {
        const current = member.process;
        if (!current) continue;
        member.killing = true;
        current.child.kill('SIGKILL');
        await current.exited;
      }
    },
  };
};

export type Cluster = ReturnType<typeof createCluster>;
