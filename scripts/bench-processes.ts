/**
 * `npm run bench`'s processes: starting Conveyor as the benchmark measures it, and reading each
 * process's memory and CPU from /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { callApi as api } from '../test/support/api-client.js';

const ENCRYPTION_KEY = 'a'.repeat(64);
/** The database the benchmark creates on the Postgres server it is given. */
export const BENCH_DATABASE = 'conveyor_bench';

export interface Instance {
  readonly base: string;
  readonly processes: ChildProcess[];
  stop(): Promise<void>;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const rssMb = (pid: number | undefined): number => {
  if (pid === undefined) return 0;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
    return line ? Number(line[1]) / 1024 : 0;
  } catch {
    return 0;
  }
};

/** CPU seconds a process has used so far (user + system), from /proc; 0 where that is unreadable. */
const cpuSeconds = (pid: number | undefined): number => {
  if (pid === undefined) return 0;
  try {
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
};
const CLOCK_TICKS = 100;

/**
 * CPU seconds of the local PostgreSQL's processes that work for the bench: its database's
 * connections and the server's shared background processes (WAL writer, checkpointer, ...), but
 * not other databases' connections (a test suite running meanwhile).
 */
const postgresCpuSeconds = (): number => {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const connection = / \d+\.\d+\.\d+\.\d+\(\d+\)| \[local\]|autovacuum worker/.test(title);
      if (!connection || title.includes(BENCH_DATABASE)) total += cpuSeconds(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
};

/** CPU used during a phase: each Conveyor process, PostgreSQL, and this benchmark's own client. */
export const cpuMeter = (instance: Instance) => {
  const sample = () => ({
    processes: instance.processes.map((child) => cpuSeconds(child.pid)),
    postgres: postgresCpuSeconds(),
    client: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
  });
  const before = sample();
  return () => {
    const after = sample();
    return {
      processes: after.processes.map((seconds, i) => seconds - (before.processes[i] ?? 0)),
      postgres: after.postgres - before.postgres,
      client: after.client - before.client,
    };
  };
};

const launch = (args: string[], env: Record<string, string>, stdout: 'ignore' | 'pipe' = 'ignore') =>
  spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
      ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
      '--enable-source-maps',
      'dist/composition/cli.js',
      ...args,
    ],
    {
      env: {
        // Every webhook goes to one flow: a per-flow rate limit, which shares an instance between
        // flows, would measure itself rather than the instance (unless the bench is told one).
        WEBHOOK_RATE_LIMIT_PER_FLOW: '0',
        ...process.env,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        ENCRYPTION_KEY,
        ...env,
      },
      stdio: ['ignore', stdout, 'inherit'],
    },
  );

/**
 * A port for a process the bench starts: below Linux's ephemeral ports (32768 and up), since after
 * an overload phase the client's thousands of closed connections hold many of those for a minute
 * and the next server could not listen.
 */
export const benchPort = () => 20_000 + Math.floor(Math.random() * 10_000);

/** Waits until `url` answers with a success, looking every 100 ms; `what` did not start after `seconds`. */
export const waitUntilAnswering = async (url: string, seconds: number, what: string) => {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      if (i > seconds * 10) throw new Error(`${what} did not start in ${seconds} s`);
    }
    await sleep(100);
  }
};

/** Conveyor from the build: a server, and `workers` worker processes beside it; `extraEnv` for all of them. */
export const start = async (
  databaseUrl: string,
  workers: number,
  extraEnv: Record<string, string> = {},
): Promise<Instance> => {
  const port = benchPort();
  const env = { ...extraEnv, DATABASE_URL: databaseUrl, PORT: String(port) };
  // With worker processes beside it, the server only takes webhooks: were it to run flows too, the
  // runs it wakes for itself would keep it busy while the workers wait.
  const server = launch(['start'], workers > 0 ? { ...env, SERVER_RUNS_FLOWS: 'false' } : env);
  const base = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(`${base}/healthcheck`, 30, 'the server');
  // A worker says it runs once it takes jobs (at info, its only line then): the phases begin after
  // every process has started, as they would behind a deployment's readiness checks.
  const extra = Array.from({ length: workers }, () => launch(['worker'], { ...env, LOG_LEVEL: 'info' }, 'pipe'));
  await Promise.all(
    extra.map(
      (worker) =>
        new Promise<void>((resolve, reject) => {
          let seen = '';
          worker.once('exit', () => reject(new Error('a worker ended before it ran')));
          worker.stdout?.on('data', (chunk: Buffer) => {
            if (seen.length < 100_000) seen += chunk.toString();
            if (seen.includes('Conveyor worker running')) resolve();
          });
        }),
    ),
  );
  const processes = [server, ...extra];
  return {
    base,
    processes,
    async stop() {
      for (const child of processes) child.kill('SIGTERM');
      await Promise.all(processes.map((child) => new Promise((resolve) => child.once('exit', resolve))));
    },
  };
};

/** The server's own statements and commits to the database so far, from its metrics. */
const serverDatabaseCounts = async (base: string) => {
  const body = await (await fetch(`${base}/metrics`)).text();
  const read = (name: string) => Number(body.match(new RegExp(`^${name} (\\d+)`, 'm'))?.[1] ?? Number.NaN);
  return {
    statements: read('conveyor_database_statements_total'),
    commits: read('conveyor_database_commits_total'),
  };
};

/** Transactions PostgreSQL committed in the bench's database, whichever process (or pg-boss) made them. */
const postgresTransactions = async (databaseUrl: string) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query('select xact_commit from pg_stat_database where datname = current_database()');
    return Number(rows[0]?.xact_commit ?? Number.NaN);
  } finally {
    await client.end();
  }
};

/**
 * Statements and commits during a phase: the server's (all of them on SQLite, where it is the
 * only process; on Postgres its webhook intake), and on Postgres the transactions every process
 * committed. PostgreSQL's statistics reach pg_stat_database within its stats interval.
 */
export const databaseMeter = async (instance: Instance, databaseUrl: string, postgres: boolean) => {
  const sample = async () => ({
    server: await serverDatabaseCounts(instance.base),
    transactions: postgres ? await postgresTransactions(databaseUrl) : 0,
  });
  const before = await sample();
  return async () => {
    if (postgres) await sleep(1000);
    const after = await sample();
    return {
      statements: after.server.statements - before.server.statements,
      commits: after.server.commits - before.server.commits,
      transactions: after.transactions - before.transactions,
    };
  };
};

/** A figure as the bench prints it: one decimal. */
export const fmt = (n: number) => n.toFixed(1);

export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);

/** The highest RSS of all of the instance's processes together until the returned function is called. */
export const rssSampler = (instance: Instance) => {
  let peak = 0;
  const sample = () => {
    peak = Math.max(
      peak,
      instance.processes.reduce((sum, child) => sum + rssMb(child.pid), 0),
    );
  };
  const timer = setInterval(sample, 250);
  return () => {
    clearInterval(timer);
    sample();
    return peak;
  };
};

/** Conveyor's finished runs: what `completionsOf` counts unless told otherwise. */
export const SUCCESSFUL_RUNS = "select count(*) as n from executions where status = 'success'";

/**
 * Counts finished runs with `query` (one row, column `n`), read from the database itself so that a
 * busy server does not slow the counting: a Postgres URL, or a SQLite file opened read-only.
 */
export const completionsOf = async (databaseUrl: string, query: string) => {
  let count: () => Promise<number>;
  let close: () => Promise<void>;
  if (/^postgres(ql)?:/.test(databaseUrl)) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    count = async () => Number((await client.query(query)).rows[0].n);
    close = () => client.end();
  } else {
    const db = new Database(databaseUrl, { readonly: true, fileMustExist: true, timeout: 5000 });
    const statement = db.prepare(query);
    count = async () => (statement.get() as { n: number }).n;
    close = async () => {
      db.close();
    };
  }
  return {
    count,
    async waitFor(target: number, timeoutMs = 600_000) {
      const startedAt = performance.now();
      while ((await count()) < target) {
        if (performance.now() - startedAt > timeoutMs)
          throw new Error(`the backlog did not drain in ${Math.round(timeoutMs / 1000)} s`);
        await sleep(100);
      }
    },
    close,
  };
};

/**
 * Installs, signs in and publishes the bench's flow: webhook → formatter (the name upper-cased) →
 * filter (n ≥ 0), then with `datastore` a datastore step keeping the last name; its webhook
 * address and a token.
 */
export const publishFlow = async (base: string, { datastore }: { readonly datastore: boolean }) => {
  const admin = { email: 'bench@example.com', password: 'a long bench password', fullName: 'Bench' };
  await api(base, 'POST', '/installation/users', undefined, admin);
  const { token } = (await api(base, 'POST', '/access-tokens', undefined, admin)).data;
  const flow = (await api(base, 'POST', '/flows', token)).data;
  const [trigger, first] = flow.steps;
  const ref = (path: string) => `{{step.${trigger.id}.${path}}}`;
  await api(base, 'PATCH', `/steps/${trigger.id}`, token, {
    appKey: 'webhook',
    key: 'catchRawWebhook',
    parameters: {},
  });
  await api(base, 'PATCH', `/steps/${first.id}`, token, {
    appKey: 'formatter',
    key: 'text',
    parameters: { transform: 'uppercase', input: ref('body.name') },
  });
  const filter = (await api(base, 'POST', `/flows/${flow.id}/steps`, token, { previousStepId: first.id })).data;
  await api(base, 'PATCH', `/steps/${filter.id}`, token, {
    appKey: 'filter',
    key: 'continueIfMatches',
    parameters: { or: [{ and: [{ key: ref('body.n'), operator: 'greater_than_or_equal', value: '0' }] }] },
  });
  if (datastore) {
    const store = (await api(base, 'POST', `/flows/${flow.id}/steps`, token, { previousStepId: filter.id })).data;
    await api(base, 'PATCH', `/steps/${store.id}`, token, {
      appKey: 'datastore',
      key: 'setValue',
      parameters: { key: 'last', value: `{{step.${first.id}.output}}` },
    });
  }
  await api(base, 'PATCH', `/flows/${flow.id}/status`, token, { active: true });
  return { url: `${base}/webhooks/flows/${flow.id}`, token };
};
