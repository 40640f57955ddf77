import { homedir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { publicKeyProblem } from '../adapters/auth/license.js';
import { packagedFiles } from '../adapters/packaged-files.js';
import { isDatabaseUrl, isPostgresUrl } from '../adapters/persistence/open-database.js';
import { RATE_LIMIT_VARIABLES, rateLimitsOf } from './config-rate-limits.js';
import { decodeKeyText, KEY_TEXT_RULE } from './key-text.js';

/**
 * Where Conveyor keeps its files when DATABASE_URL does not say. In a checkout (`npm start`) that is
 * ./data, beside the code. An installed package (`npm install -g`) runs as a command from any
 * directory, and a data folder that moved with the current directory would look like a lost
 * installation: it uses ~/.conveyor instead.
 */
export const defaultDataDirectory = (moduleUrl: string, home: string): string =>
  fileURLToPath(moduleUrl).split(sep).includes('node_modules') ? join(home, '.conveyor') : './data';

/** The single executable is a command run from any directory, as an installed package is. */
const programDataDirectory = (home: string): string =>
  packagedFiles() ? join(home, '.conveyor') : defaultDataDirectory(import.meta.url, home);

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
const ORIGINS_RULE =
  'must be a comma-separated list of origins such as https://app.example.com (scheme, host and port only; * is not allowed)';
/** Scheme, host and port: an address with nothing after the host, not even credentials. */
const isOrigin = (text: string) => {
  const url = URL.canParse(text) ? new URL(text) : null;
  return (
    url !== null &&
    /^https?:$/.test(url.protocol) &&
    url.pathname === '/' &&
    !url.search &&
    !url.hash &&
    !url.username &&
    !url.password &&
    !text.endsWith('?') &&
    !text.endsWith('#')
  );
};
/** A comma-separated list: its items trimmed and then `normalize`d, empty ones left out. */
const commaList = (normalize = (item: string) => item) =>
  v.pipe(
    v.string(),
    v.transform((list) =>
      list
        .split(',')
        .map((item) => normalize(item.trim()))
        .filter(Boolean),
    ),
  );
/** `CORS_ORIGINS`: web apps on other origins that may call the API with credentials. Never `*`. */
const origins = v.pipe(
  commaList((origin) => origin.replace(/\/+$/, '')),
  v.check((list) => list.every(isOrigin), `${ORIGINS_RULE}.`),
  v.transform((list) => list.map((origin) => new URL(origin).origin)),
);
// .env files often carry a PEM on one line with literal \n escapes; read those as the newlines they stand for.
const multiline = v.pipe(
  v.string(),
  v.transform((s) => s.replaceAll('\\n', '\n')),
  v.trim(),
  v.nonEmpty('must not be empty.'),
);
/** One of `options`, refused in plain words (valibot's own message quotes its type notation). */
const oneOf = <const T extends readonly [string, ...string[]]>(options: T) =>
  v.picklist(options, `must be one of ${options.join(', ')}.`);
const flag = v.pipe(
  oneOf(['true', 'false', '1', '0']),
  v.transform((s) => s === 'true' || s === '1'),
);
const encryptionKey = v.pipe(
  text,
  v.check((key) => decodeKeyText(key) !== null, `${KEY_TEXT_RULE}.`),
);
const previousEncryptionKeys = v.pipe(
  commaList(),
  v.check(
    (keys) => keys.every((key) => decodeKeyText(key) !== null),
    `must be a comma-separated list of keys, each of which ${KEY_TEXT_RULE}.`,
  ),
);
/** A postgres:// URL, or else a SQLite file path; a URL of another scheme is refused. */
const databaseUrl = v.pipe(
  text,
  v.check(
    isDatabaseUrl,
    'must be a postgres:// (or postgresql://) URL, or the path of a SQLite file; no other database is supported.',
  ),
  v.check(
    (url) => !isPostgresUrl(url) || URL.canParse(url),
    'is not a valid URL (postgres://user:password@host:5432/database).',
  ),
);

/** `TRUST_PROXY`: how many proxies in front of this server append to X-Forwarded-For (true: one). */
const proxies = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^(true|false|\d{1,2})$/, 'must be true, false or the number of proxies in front of the server.'),
  v.transform((s) => (s === 'true' ? 1 : s === 'false' ? 0 : Number(s))),
);

const PLANS_SHAPE = 'must be a JSON array of {id, name, quota, price}';
const planText = (field: string) =>
  v.pipe(
    v.string(`${PLANS_SHAPE}: each plan's ${field} is text.`),
    v.trim(),
    v.nonEmpty(`${PLANS_SHAPE}: each plan's ${field} must not be empty.`),
  );
const quotaRule = `${PLANS_SHAPE}: each plan's quota is a whole number of at least 0, or null.`;
const quota = v.nullable(v.pipe(v.number(quotaRule), v.integer(quotaRule), v.minValue(0, quotaRule)));
/** `BILLING_PLANS`: the plans users can buy, keyed by the payment provider's price id. */
const plans = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    try {
      return JSON.parse(dataset.value) as unknown;
    } catch {
      addIssue({ message: `${PLANS_SHAPE}.` });
      return NEVER;
    }
  }),
  v.array(
    v.strictObject(
      {
        id: planText('id'),
        name: planText('name'),
        quota,
        price: v.nullable(v.string(`${PLANS_SHAPE}: each plan's price is text or null.`)),
      },
      `${PLANS_SHAPE}.`,
    ),
    `${PLANS_SHAPE}.`,
  ),
  v.minLength(1, 'must name at least one plan.'),
  v.check((list) => new Set(list.map((p) => p.id)).size === list.length, 'must not repeat a plan id.'),
);

const EnvSchema = v.object({
  NODE_ENV: v.optional(oneOf(['development', 'production', 'test']), 'development'),
  PORT: v.optional(integer(0, 65_535), '3000'),
  HOST: v.optional(text, '127.0.0.1'),
  DATABASE_URL: v.optional(databaseUrl),
  DATABASE_POOL_SIZE: v.optional(integer(1, 1000), '10'),
  DATABASE_POOL_TIMEOUT_MS: v.optional(integer(50, 600_000), '5000'),
  SQLITE_SYNCHRONOUS: v.optional(oneOf(['normal', 'full']), 'normal'),
  ENCRYPTION_KEY: v.optional(encryptionKey),
  ENCRYPTION_KEYS_PREVIOUS: v.optional(previousEncryptionKeys),
  WEB_APP_URL: v.optional(httpUrl),
  CORS_ORIGINS: v.optional(origins),
  DOCS_URL: v.optional(httpUrl),
  WEBHOOK_URL: v.optional(httpUrl),
  WEB_CONSOLE_DIR: v.optional(text),
  DATA_DIR: v.optional(text),
  SMTP_URL: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^smtps?:\/\//i, 'must start with smtp:// or smtps://.'))),
  MAIL_FROM: v.optional(text, 'Conveyor <no-reply@localhost>'),
  LOG_LEVEL: v.optional(oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  ACCESS_TOKEN_TTL_DAYS: v.optional(integer(1, 365), '14'),
  BODY_LIMIT_BYTES: v.optional(integer(1024, 1024 ** 3), String(1024 * 1024)),
  TRUST_PROXY: v.optional(proxies, 'false'),
  ALLOW_PRIVATE_NETWORKS: v.optional(flag, 'false'),
  MCP_STDIO_ALLOWED: v.optional(flag, 'false'),
  WORKER_CONCURRENCY: v.optional(integer(1, 1000), '50'),
  HEAP_GROWTH_PERCENT: v.optional(integer(0, 1000), '50'),
  CODE_WORKERS: v.optional(integer(1, 64)),
  CODE_WORKERS_PER_FLOW: v.optional(integer(1, 64)),
  SERVER_RUNS_FLOWS: v.optional(flag, 'true'),
  EXECUTION_RETENTION_DAYS: v.optional(integer(1, 3650), '30'),
  FLOW_VERSIONS_KEEP: v.optional(integer(1, 1_000_000)),
  FLOW_LOOP_MAX_ITEMS: v.optional(integer(1, 1_000_000), '10000'),
  LISTENER_MAX_BACKLOG_PER_FLOW: v.optional(integer(0, 100_000_000), '1000'),
  FLOW_CALL_DEPTH_MAX: v.optional(integer(1, 100), '10'),
  EXECUTION_LEASE_SECONDS: v.optional(integer(1, 3600), '30'),
  SYNC_WEBHOOK_TIMEOUT_SECONDS: v.optional(integer(1, 600), '30'),
  TEST_EVENT_MAX_WAIT_SECONDS: v.optional(integer(1, 600), '120'),
  MCP_TOOL_TIMEOUT_SECONDS: v.optional(integer(1, 3600), '60'),
  WEBHOOK_RATE_LIMIT_PER_FLOW: v.optional(integer(0, 1_000_000), '100'),
  WEBHOOK_RATE_LIMIT_BURST: v.optional(integer(1, 1_000_000), '1000'),
  WEBHOOK_MAX_PENDING: v.optional(integer(0, 1_000_000), '200'),
  WEBHOOK_MAX_BACKLOG: v.optional(integer(0, 100_000_000), '5000'),
  WEBHOOK_MAX_BACKLOG_PER_FLOW: v.optional(integer(0, 100_000_000), '2500'),
  LICENSE_KEY: v.optional(multiline),
  LICENSE_PUBLIC_KEY: v.optional(
    v.pipe(
      multiline,
      v.check(
        (key) => publicKeyProblem(key) === null,
        'must be an Ed25519 public key: PEM, or base64 of the 32-byte raw key or of its SPKI DER (the public half, never the private key).',
      ),
    ),
  ),
  SHUTDOWN_TIMEOUT_SECONDS: v.optional(integer(1, 3600), '10'),
  METRICS_TOKEN: v.optional(
    v.pipe(text, v.minLength(16, 'must be at least 16 characters.'), v.regex(/^\S+$/, 'must not contain spaces.')),
  ),
  BILLING_ENABLED: v.optional(flag, 'false'),
  BILLING_WEBHOOK_SECRET: v.optional(v.pipe(text, v.minLength(16, 'must be at least 16 characters.'))),
  BILLING_WEBHOOK_TOLERANCE_SECONDS: v.optional(integer(1, 86_400), '300'),
  BILLING_PLANS: v.optional(plans),
  BILLING_FREE_QUOTA: v.optional(integer(0, 1_000_000_000), '100'),
  ...RATE_LIMIT_VARIABLES,
  QUEUE: v.optional(oneOf(['local', 'pg-boss'])),
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

/** The names of every variable Conveyor reads. */
export const ENVIRONMENT_VARIABLES: readonly string[] = Object.keys(EnvSchema.entries);

export type Config = ReturnType<typeof toConfig>;

const webAppUrlOf = (env: v.InferOutput<typeof EnvSchema>) => env.WEB_APP_URL ?? `http://localhost:${env.PORT}`;

const databaseUrlOf = (env: v.InferOutput<typeof EnvSchema>, defaultDirectory: string) =>
  env.DATABASE_URL ?? `${defaultDirectory}/conveyor.db`;
/** A SQLite file, rather than Postgres or an in-memory database. */
export const onDisk = (databaseUrl: string) => !isPostgresUrl(databaseUrl) && databaseUrl !== ':memory:';

/** `APP_BASE_URL_<KEY>` and `APP_AUTH_URL_<KEY>`: one variable per app, so their names are not in the schema. */
const APP_ADDRESS_VARIABLE = /^APP_(BASE|AUTH)_URL_[A-Z0-9_]+$/;

const appAddressesOf = (env: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter(([name]) => APP_ADDRESS_VARIABLE.test(name)));

const appAddressProblems = (env: Record<string, string>): ConfigProblem[] =>
  Object.entries(appAddressesOf(env)).flatMap(([variable, value]) => {
    const url = URL.canParse(value) ? new URL(value) : null;
    return url && (url.protocol === 'http:' || url.protocol === 'https:')
      ? []
      : [{ variable, message: 'must be an http or https URL.' }];
  });

const toConfig = (env: v.InferOutput<typeof EnvSchema>, defaultDirectory: string, raw: Record<string, string>) => ({
  /** The apps' vendor addresses this instance replaces (a proxy, a self-hosted edition, a test's fake). */
  appAddresses: appAddressesOf(raw),
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
  previousEncryptionKeys: env.ENCRYPTION_KEYS_PREVIOUS ?? [],
  webAppUrl: webAppUrlOf(env),
  /** Origins whose pages may call the API with credentials: the web app's, then any CORS_ORIGINS. */
  corsOrigins: [...new Set([new URL(webAppUrlOf(env)).origin, ...(env.CORS_ORIGINS ?? [])])],
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
  /** Proxies in front of the server whose X-Forwarded-For entries are believed; 0: the socket's peer is the client. */
  trustedProxies: env.TRUST_PROXY,
  rateLimits: rateLimitsOf(env),
  /** Let apps reach loopback and private addresses (off: the SSRF guard refuses them). */
  allowPrivateNetworks: env.ALLOW_PRIVATE_NETWORKS,
  /** Let MCP Client connections run a command on this server (a stdio MCP server); off: HTTP servers only. */
  mcpStdioAllowed: env.MCP_STDIO_ALLOWED,
  /** Executions one worker process runs at the same time. */
  workerConcurrency: env.WORKER_CONCURRENCY,
  serverRunsFlows: env.SERVER_RUNS_FLOWS,
  /** How far past its live data the heap may grow before a full collection, in %; 0: V8 decides. */
  heapGrowthPercent: env.HEAP_GROWTH_PERCENT,
  /** Worker threads of the code app's sandbox pool; null: two, or one on a single core. */
  codeWorkers: env.CODE_WORKERS ?? null,
  /** Sandbox workers one flow may hold at once; null: all but one. */
  codeWorkersPerFlow: env.CODE_WORKERS_PER_FLOW ?? null,
  executionRetentionMs: env.EXECUTION_RETENTION_DAYS * 24 * 60 * 60_000,
  /** The newest versions each flow keeps (older ones nothing points to are pruned hourly); null: all, for ever. */
  flowVersionsKeep: env.FLOW_VERSIONS_KEEP ?? null,
  /** The most items any loop may have (a loop's own `maxItems` may say fewer). */
  loopItemsMax: env.FLOW_LOOP_MAX_ITEMS,
  /** Unfinished runs of one flow before its listener trigger takes no more messages; 0 turns it off. */
  listenerMaxBacklog: env.LISTENER_MAX_BACKLOG_PER_FLOW,
  /** How deep flows may call flows. */
  callDepthMax: env.FLOW_CALL_DEPTH_MAX,
  /** How long a worker's hold on a run lasts without a heartbeat: how soon a dead worker's runs resume. */
  executionLeaseMs: env.EXECUTION_LEASE_SECONDS * 1000,
  syncWebhookTimeoutMs: env.SYNC_WEBHOOK_TIMEOUT_SECONDS * 1000,
  /** The longest the console's "Listen for a test event" waits for a trigger's next event. */
  testEventMaxWaitMs: env.TEST_EVENT_MAX_WAIT_SECONDS * 1000,
  /** How long an MCP client's call of a flow tool waits for the run before answering with its id. */
  mcpToolTimeoutMs: env.MCP_TOOL_TIMEOUT_SECONDS * 1000,
  /** Webhook intake per process: beyond a flow's rate 429, beyond a backlog 503; 0 turns a limit off. */
  webhookIntake: {
    flowRatePerSecond: env.WEBHOOK_RATE_LIMIT_PER_FLOW,
    flowBurst: env.WEBHOOK_RATE_LIMIT_BURST,
    maxPending: env.WEBHOOK_MAX_PENDING,
    maxBacklog: env.WEBHOOK_MAX_BACKLOG,
    maxFlowBacklog: env.WEBHOOK_MAX_BACKLOG_PER_FLOW,
  },
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

export interface ConfigProblem {
  /** The environment variable at fault. */
  readonly variable: string;
  /** What is wrong with it, in plain words: "must be a whole number." */
  readonly message: string;
}

/** A configuration that cannot work. Its message is one line: every problem, then what to do. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly problems: readonly ConfigProblem[] = [],
  ) {
    super(message);
  }

  static of(problems: readonly ConfigProblem[]): ConfigError {
    const list = problems.map(({ variable, message }) => `${variable} ${message.replace(/\.$/, '')}`).join('; ');
    return new ConfigError(
      `Invalid configuration: ${list}. Correct ${problems.length === 1 ? 'this environment variable' : 'these environment variables'} (the README's configuration table lists them) and start again.`,
      problems,
    );
  }
}

/** Rules that join variables, checked beside the rules of each one so that every problem is told at once. */
const crossProblems = (env: Record<string, string>): ConfigProblem[] => {
  const problems: ConfigProblem[] = [];
  const databaseUrl = env.DATABASE_URL;
  const onPostgres = databaseUrl !== undefined && isPostgresUrl(databaseUrl);
  if (env.NODE_ENV === 'production' && env.ENCRYPTION_KEY === undefined) {
    problems.push({
      variable: 'ENCRYPTION_KEY',
      message: 'is required when NODE_ENV=production (generate one: openssl rand -base64 32).',
    });
  }
  if (['true', '1'].includes(env.BILLING_ENABLED ?? '') && !(env.BILLING_WEBHOOK_SECRET && env.BILLING_PLANS)) {
    problems.push({ variable: 'BILLING_ENABLED', message: 'billing needs BILLING_WEBHOOK_SECRET and BILLING_PLANS.' });
  }
  if (env.QUEUE === 'pg-boss' && !onPostgres) {
    problems.push({ variable: 'QUEUE', message: 'pg-boss needs a postgres:// DATABASE_URL.' });
  }
  return problems;
};

/** Parses the environment once. Every problem is reported at the same time, by variable name. */
export const loadConfig = (
  env: Record<string, string | undefined>,
  defaultDirectory = programDataDirectory(homedir()),
): Config => {
  // An empty variable means "not set", as it does in most .env tooling.
  const present = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  );
  const result = v.safeParse(EnvSchema, present);
  const problems = [
    ...(result.issues ?? []).map((issue) => ({
      variable: v.getDotPath(issue)?.split('.')[0] ?? 'environment',
      message: issue.message,
    })),
    ...crossProblems(present),
    ...appAddressProblems(present),
  ];
  if (!result.success || problems.length > 0) throw ConfigError.of(problems);
  return toConfig(result.output, result.output.DATA_DIR ?? defaultDirectory, present);
};
