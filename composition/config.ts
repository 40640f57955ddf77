import { homedir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { isPostgresUrl } from '../adapters/persistence/open-database.js';

/**
 * Where Conveyor keeps its files when DATABASE_URL does not say. In a checkout (`npm start`) that is
 * ./data, beside the code. An installed package (`npm install -g`) runs as a command from any
 * directory, and a data folder that moved with the current directory would look like a lost
 * installation: it uses ~/.conveyor instead.
 */
export const defaultDataDirectory = (moduleUrl: string, home: string): string =>
  fileURLToPath(moduleUrl).split(sep).includes('node_modules') ? join(home, '.conveyor') : './data';

const integer = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d+$/, 'must be a whole number.'),
    v.transform(Number),
    v.minValue(min, `must be at least ${min}.`),
    v.maxValue(max, `must be at most ${max}.`),
  );
const httpUrl = v.pipe(
  v.string(),
  v.trim(),
  v.url('must be a URL.'),
  v.regex(/^https?:\/\//i, 'must start with http:// or https://.'),
  v.transform((url) => url.replace(/\/+$/, '')),
);
const text = v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty.'));
// .env files often carry a PEM on one line with literal \n escapes; read those as the newlines they stand for.
const multiline = v.pipe(
  v.string(),
  v.transform((s) => s.replaceAll('\\n', '\n')),
  v.trim(),
  v.nonEmpty('must not be empty.'),
);
const flag = v.pipe(
  v.picklist(['true', 'false', '1', '0']),
  v.transform((s) => s === 'true' || s === '1'),
);

const quota = v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0)));
/** `BILLING_PLANS`: the plans users can buy, keyed by the payment provider's price id. */
const plans = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    try {
      return JSON.parse(dataset.value) as unknown;
    } catch {
      addIssue({ message: 'must be a JSON array of {id, name, quota, price}.' });
      return NEVER;
    }
  }),
  v.array(
    v.strictObject({
      id: v.pipe(v.string(), v.trim(), v.nonEmpty()),
      name: v.pipe(v.string(), v.trim(), v.nonEmpty()),
      quota,
      price: v.nullable(v.string()),
    }),
    'must be a JSON array of {id, name, quota, price}.',
  ),
  v.minLength(1, 'must name at least one plan.'),
  v.check((list) => new Set(list.map((p) => p.id)).size === list.length, 'must not repeat a plan id.'),
);

const EnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test']), 'development'),
  PORT: v.optional(integer(0, 65_535), '3000'),
  HOST: v.optional(text, '127.0.0.1'),
  DATABASE_URL: v.optional(text),
  DATABASE_POOL_SIZE: v.optional(integer(1, 1000), '10'),
  DATABASE_POOL_TIMEOUT_MS: v.optional(integer(50, 600_000), '5000'),
  SQLITE_SYNCHRONOUS: v.optional(v.picklist(['normal', 'full']), 'normal'),
  ENCRYPTION_KEY: v.optional(text),
  ENCRYPTION_KEYS_PREVIOUS: v.optional(text),
  WEB_APP_URL: v.optional(httpUrl),
  DOCS_URL: v.optional(httpUrl),
  WEBHOOK_URL: v.optional(httpUrl),
  WEB_CONSOLE_DIR: v.optional(text),
  SMTP_URL: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^smtps?:\/\//i, 'must start with smtp:// or smtps://.'))),
  MAIL_FROM: v.optional(text, 'Conveyor <no-reply@localhost>'),
  LOG_LEVEL: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  ACCESS_TOKEN_TTL_DAYS: v.optional(integer(1, 365), '14'),
  BODY_LIMIT_BYTES: v.optional(integer(1024, 1024 ** 3), String(1024 * 1024)),
  TRUST_PROXY: v.optional(flag, 'false'),
  ALLOW_PRIVATE_NETWORKS: v.optional(flag, 'false'),
  WORKER_CONCURRENCY: v.optional(integer(1, 1000), '50'),
  HEAP_GROWTH_PERCENT: v.optional(integer(0, 1000), '50'),
  CODE_WORKERS: v.optional(integer(1, 64)),
  SERVER_RUNS_FLOWS: v.optional(flag, 'true'),
  EXECUTION_RETENTION_DAYS: v.optional(integer(1, 3650), '30'),
  EXECUTION_LEASE_SECONDS: v.optional(integer(1, 3600), '30'),
  SYNC_WEBHOOK_TIMEOUT_SECONDS: v.optional(integer(1, 600), '30'),
  LICENSE_KEY: v.optional(multiline),
  LICENSE_PUBLIC_KEY: v.optional(multiline),
  SHUTDOWN_TIMEOUT_SECONDS: v.optional(integer(1, 3600), '10'),
  METRICS_TOKEN: v.optional(
    v.pipe(text, v.minLength(16, 'must be at least 16 characters.'), v.regex(/^\S+$/, 'must not contain spaces.')),
  ),
  BILLING_ENABLED: v.optional(flag, 'false'),
  BILLING_WEBHOOK_SECRET: v.optional(v.pipe(text, v.minLength(16, 'must be at least 16 characters.'))),
  BILLING_WEBHOOK_TOLERANCE_SECONDS: v.optional(integer(1, 86_400), '300'),
  BILLING_PLANS: v.optional(plans),
  BILLING_FREE_QUOTA: v.optional(integer(0, 1_000_000_000), '100'),
  QUEUE: v.optional(v.picklist(['local', 'pg-boss'])),
  QUEUE_PG_BOSS_SCHEMA: v.optional(
    v.pipe(
      text,
      v.regex(/^[a-z_][a-z0-9_]{0,49}$/, 'must be a lower-case Postgres name (letters, digits, _; at most 50).'),
    ),
    'pgboss',
  ),
  QUEUE_MAX_ATTEMPTS: v.optional(integer(1, 100), '5'),
  QUEUE_LEASE_SECONDS: v.optional(integer(1, 24 * 60 * 60)),
  QUEUE_POLL_INTERVAL_MS: v.optional(integer(10, 60_000), '1000'),
});

export type Config = ReturnType<typeof toConfig>;

const webAppUrlOf = (env: v.InferOutput<typeof EnvSchema>) => env.WEB_APP_URL ?? `http://localhost:${env.PORT}`;

const databaseUrlOf = (env: v.InferOutput<typeof EnvSchema>, defaultDirectory: string) =>
  env.DATABASE_URL ?? `${defaultDirectory}/conveyor.db`;
const onDisk = (databaseUrl: string) => !isPostgresUrl(databaseUrl) && databaseUrl !== ':memory:';

const toConfig = (env: v.InferOutput<typeof EnvSchema>, defaultDirectory: string) => ({
  nodeEnv: env.NODE_ENV,
  port: env.PORT,
  host: env.HOST,
  databaseUrl: databaseUrlOf(env, defaultDirectory),
  /** Holds the generated encryption key and the mail outbox: the SQLite file's folder, else the default one. */
  dataDirectory: onDisk(databaseUrlOf(env, defaultDirectory))
    ? dirname(databaseUrlOf(env, defaultDirectory))
    : defaultDirectory,
  databasePoolSize: env.DATABASE_POOL_SIZE,
  /** How long a query waits for a free Postgres connection before failing as unavailable (503). */
  databasePoolTimeoutMs: env.DATABASE_POOL_TIMEOUT_MS,
  /** SQLite: `full` makes each commit survive a power loss too (an fsync per commit). */
  sqliteSynchronous: env.SQLITE_SYNCHRONOUS,
  /** Raw value; `resolveEncryptionKey` turns it (or its absence) into key bytes. */
  encryptionKey: env.ENCRYPTION_KEY ?? null,
  /** Older keys, comma-separated, that still open values sealed before a rotation. */
  previousEncryptionKeys:
    env.ENCRYPTION_KEYS_PREVIOUS?.split(',')
      .map((k) => k.trim())
      .filter(Boolean) ?? [],
  webAppUrl: webAppUrlOf(env),
  docsUrl: env.DOCS_URL ?? null,
  /** Base of the webhook addresses steps show: the web app's address unless the API is reached elsewhere. */
  webhookUrl: env.WEBHOOK_URL ?? webAppUrlOf(env),
  /** The built web console's folder; null: `dist/web` of this installation. */
  webConsoleDir: env.WEB_CONSOLE_DIR ?? null,
  smtpUrl: env.SMTP_URL ?? null,
  mailFrom: env.MAIL_FROM,
  logLevel: env.LOG_LEVEL,
  accessTokenTtlMs: env.ACCESS_TOKEN_TTL_DAYS * 24 * 60 * 60_000,
  bodyLimitBytes: env.BODY_LIMIT_BYTES,
  trustProxy: env.TRUST_PROXY,
  /** Let apps reach loopback and private addresses (off: the SSRF guard refuses them). */
  allowPrivateNetworks: env.ALLOW_PRIVATE_NETWORKS,
  /** Executions one worker process runs at the same time. */
  workerConcurrency: env.WORKER_CONCURRENCY,
  serverRunsFlows: env.SERVER_RUNS_FLOWS,
  /** How far past its live data the heap may grow before a full collection, in %; 0: V8 decides. */
  heapGrowthPercent: env.HEAP_GROWTH_PERCENT,
  /** Worker threads of the code app's sandbox pool; null: two, or one on a single core. */
  codeWorkers: env.CODE_WORKERS ?? null,
  executionRetentionMs: env.EXECUTION_RETENTION_DAYS * 24 * 60 * 60_000,
  /** How long a worker's hold on a run lasts without a heartbeat: how soon a dead worker's runs resume. */
  executionLeaseMs: env.EXECUTION_LEASE_SECONDS * 1000,
  syncWebhookTimeoutMs: env.SYNC_WEBHOOK_TIMEOUT_SECONDS * 1000,
  /** Raw licence text; verified at start by the licence source. */
  licenseKey: env.LICENSE_KEY ?? null,
  /** Null means the public key built into this release. */
  licensePublicKey: env.LICENSE_PUBLIC_KEY ?? null,
  /**
   * On SIGTERM/SIGINT: how long in-flight HTTP requests may take to finish, and then how long
   * running jobs may take before they are released to other workers.
   */
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_SECONDS * 1000,
  /** Bearer token `GET /metrics` requires; null: the metrics are public. */
  metricsToken: env.METRICS_TOKEN ?? null,
  /** Null: billing is off and every user has the unlimited self-hosted plan. */
  billing: env.BILLING_ENABLED
    ? {
        webhookSecret: env.BILLING_WEBHOOK_SECRET ?? '',
        webhookToleranceMs: env.BILLING_WEBHOOK_TOLERANCE_SECONDS * 1000,
        plans: env.BILLING_PLANS ?? [],
        freePlan: { id: 'free', name: 'Free', quota: env.BILLING_FREE_QUOTA, price: null },
      }
    : null,
  /** The JobQueue adapter: pg-boss by default on Postgres, the local queue on SQLite. */
  queue: env.QUEUE ?? (isPostgresUrl(databaseUrlOf(env, defaultDirectory)) ? ('pg-boss' as const) : ('local' as const)),
  queuePgBossSchema: env.QUEUE_PG_BOSS_SCHEMA,
  queueMaxAttempts: env.QUEUE_MAX_ATTEMPTS,
  /** Null means each adapter's default (local 30 s, renewed; pg-boss 15 minutes, not renewable). */
  queueLeaseMs: env.QUEUE_LEASE_SECONDS === undefined ? null : env.QUEUE_LEASE_SECONDS * 1000,
  queuePollIntervalMs: env.QUEUE_POLL_INTERVAL_MS,
});

export class ConfigError extends Error {}

/** Parses the environment once. Every problem is reported at the same time, by variable name. */
export const loadConfig = (
  env: Record<string, string | undefined>,
  defaultDirectory = defaultDataDirectory(import.meta.url, homedir()),
): Config => {
  // An empty variable means "not set", as it does in most .env tooling.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = v.safeParse(EnvSchema, present);
  if (!result.success) {
    const lines = result.issues.map((issue) => `  ${v.getDotPath(issue) ?? 'environment'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = toConfig(result.output, defaultDirectory);
  if (config.billing && (!config.billing.webhookSecret || config.billing.plans.length === 0)) {
    throw new ConfigError(
      'Invalid configuration:\n  BILLING_ENABLED: billing needs BILLING_WEBHOOK_SECRET and BILLING_PLANS.',
    );
  }
  if (config.queue === 'pg-boss' && !isPostgresUrl(config.databaseUrl)) {
    throw new ConfigError('Invalid configuration:\n  QUEUE: pg-boss needs a postgres:// DATABASE_URL.');
  }
  return config;
};
