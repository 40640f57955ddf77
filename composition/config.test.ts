import { describe, expect, it } from 'vitest';
import { ConfigError, defaultDataDirectory, loadConfig } from './config.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const KEY = 'a'.repeat(64);
const OLD_KEY = 'b'.repeat(64);
const OLDER_KEY = Buffer.alloc(32, 7).toString('base64');
const PUBLIC_KEY_PEM = [
  '-----BEGIN PUBLIC KEY-----',
  'MCowBQYDK2VwAyEAECAKEUi+oCO7e7tpMvwK86aSSVzg12CidRffZUWt+60=',
  '-----END PUBLIC KEY-----',
].join('\n');

/** The ConfigError message `env` is refused with; fails the test when it is accepted. */
const refusal = (env: Record<string, string | undefined>): string => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected loadConfig to refuse the environment');
};

describe('the data directory', () => {
  it('is ./data in a checkout and ~/.conveyor in an installed package, whatever the current directory', () => {
    expect(defaultDataDirectory('file:///src/conveyor/dist/composition/config.js', '/home/ann')).toBe('./data');
    expect(defaultDataDirectory('file:///usr/lib/node_modules/conveyor/dist/composition/config.js', '/home/ann')).toBe(
      '/home/ann/.conveyor',
    );
  });

  it('holds the SQLite database unless DATABASE_URL names another file, whose folder it then is', () => {
    expect(loadConfig({}, '/home/ann/.conveyor')).toMatchObject({
      databaseUrl: '/home/ann/.conveyor/conveyor.db',
      dataDirectory: '/home/ann/.conveyor',
    });
    expect(loadConfig({ DATABASE_URL: '/srv/db/main.db' }, '/home/ann/.conveyor').dataDirectory).toBe('/srv/db');
  });

  it('is DATA_DIR when set (conveyor --data-dir), for the database too unless DATABASE_URL names one', () => {
    expect(loadConfig({ DATA_DIR: '/srv/conveyor' }, '/home/ann/.conveyor')).toMatchObject({
      databaseUrl: '/srv/conveyor/conveyor.db',
      dataDirectory: '/srv/conveyor',
    });
    const postgres = 'postgres://conveyor@db/conveyor';
    expect(loadConfig({ DATA_DIR: '/srv/conveyor', DATABASE_URL: postgres }, './data').dataDirectory).toBe(
      '/srv/conveyor',
    );
    expect(loadConfig({ DATA_DIR: '/srv/conveyor', DATABASE_URL: '/srv/db/main.db' }, './data').dataDirectory).toBe(
      '/srv/db',
    );
  });

  it('keeps the default folder for a Postgres or in-memory database', () => {
    const postgres = 'postgres://conveyor@db/conveyor';
    expect(loadConfig({ DATABASE_URL: postgres }, '/home/ann/.conveyor').dataDirectory).toBe('/home/ann/.conveyor');
    expect(loadConfig({ DATABASE_URL: ':memory:' }, '/home/ann/.conveyor').dataDirectory).toBe('/home/ann/.conveyor');
  });
});

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({}, './data')).toEqual({
      appAddresses: {},
      nodeEnv: 'development',
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: './data/conveyor.db',
      dataDirectory: './data',
      databasePoolSize: 10,
      databasePoolTimeoutMs: 5000,
      sqliteSynchronous: 'normal',
      encryptionKey: null,
      previousEncryptionKeys: [],
      webAppUrl: 'http://localhost:3000',
      corsOrigins: ['http://localhost:3000'],
      docsUrl: null,
      webhookUrl: 'http://localhost:3000',
      webConsoleDir: null,
      smtpUrl: null,
      mailFrom: 'Conveyor <no-reply@localhost>',
      logLevel: 'info',
      accessTokenTtlMs: 14 * DAY_MS,
      bodyLimitBytes: 1024 * 1024,
      trustedProxies: 0,
      rateLimits: {
        signIn: { limit: 10, windowMs: 15 * 60_000 },
        signInPerAddress: { limit: 100, windowMs: 15 * 60_000 },
        forgotPassword: { limit: 5, windowMs: 60 * 60_000 },
        forgotPasswordPerAddress: { limit: 30, windowMs: 60 * 60_000 },
        samlSignInPerAddress: { limit: 300, windowMs: 15 * 60_000 },
        mcpTokenPerAddress: { limit: 100, windowMs: 15 * 60_000 },
      },
      allowPrivateNetworks: false,
      mcpStdioAllowed: false,
      workerConcurrency: 50,
      serverRunsFlows: true,
      heapGrowthPercent: 50,
      codeWorkers: null,
      codeWorkersPerFlow: null,
      executionRetentionMs: 30 * DAY_MS,
      flowVersionsKeep: null,
      loopItemsMax: 10_000,
      listenerMaxBacklog: 1000,
      callDepthMax: 10,
      executionLeaseMs: 30_000,
      syncWebhookTimeoutMs: 30_000,
      testEventMaxWaitMs: 120_000,
      mcpToolTimeoutMs: 60_000,
      webhookIntake: {
        flowRatePerSecond: 100,
        flowBurst: 1000,
        maxPending: 200,
        maxBacklog: 5000,
        maxFlowBacklog: 2500,
      },
      licenseKey: null,
      licensePublicKey: null,
      shutdownTimeoutMs: 10_000,
      metricsToken: null,
      billing: null,
      queue: 'local',
      queuePgBossSchema: 'pgboss',
      queueMaxAttempts: 5,
      queueLeaseMs: null,
      queuePollIntervalMs: 1000,
    });
  });

  it('treats empty strings and undefined as unset', () => {
    const env = {
      NODE_ENV: '',
      PORT: '',
      HOST: '',
      DATABASE_URL: '',
      DATABASE_POOL_SIZE: '',
      ENCRYPTION_KEY: '',
      WEB_APP_URL: '',
      DOCS_URL: '',
      SMTP_URL: '',
      MAIL_FROM: '',
      LOG_LEVEL: '',
      ACCESS_TOKEN_TTL_DAYS: '',
      BODY_LIMIT_BYTES: '',
      TRUST_PROXY: undefined,
      LICENSE_KEY: '',
      LICENSE_PUBLIC_KEY: undefined,
    };
    expect(loadConfig(env)).toEqual(loadConfig({}));
  });

  it('ignores variables it does not know', () => {
    expect(loadConfig({ PATH: '/usr/bin', HOME: '/root', CONVEYOR_UNKNOWN: 'x' })).toEqual(loadConfig({}));
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        NODE_ENV: 'production',
        PORT: '8080',
        HOST: '0.0.0.0',
        DATABASE_URL: 'postgres://conveyor@db/conveyor',
        DATABASE_POOL_SIZE: '25',
        DATABASE_POOL_TIMEOUT_MS: '750',
        SQLITE_SYNCHRONOUS: 'full',
        ENCRYPTION_KEY: KEY,
        ENCRYPTION_KEYS_PREVIOUS: ` ${OLD_KEY} , ${OLDER_KEY},`,
        WEB_APP_URL: 'https://conveyor.example.com',
        CORS_ORIGINS: 'https://automatisch.example.com, http://localhost:3001/,https://conveyor.example.com',
        DOCS_URL: 'https://docs.example.com',
        WEBHOOK_URL: 'https://hooks.example.com/',
        WEB_CONSOLE_DIR: '/srv/conveyor/web',
        SMTP_URL: 'smtps://user:pass@mail.example.com',
        MAIL_FROM: 'Ops <ops@example.com>',
        LOG_LEVEL: 'debug',
        ACCESS_TOKEN_TTL_DAYS: '1',
        BODY_LIMIT_BYTES: '2048',
        TRUST_PROXY: 'true',
        ALLOW_PRIVATE_NETWORKS: '1',
        MCP_STDIO_ALLOWED: 'true',
        APP_BASE_URL_TELEGRAM_BOT: 'http://127.0.0.1:8081/telegram',
        WORKER_CONCURRENCY: '8',
        CODE_WORKERS: '3',
        CODE_WORKERS_PER_FLOW: '2',
        HEAP_GROWTH_PERCENT: '0',
        SERVER_RUNS_FLOWS: 'false',
        EXECUTION_RETENTION_DAYS: '7',
        FLOW_VERSIONS_KEEP: '50',
        FLOW_LOOP_MAX_ITEMS: '500',
        LISTENER_MAX_BACKLOG_PER_FLOW: '40',
        FLOW_CALL_DEPTH_MAX: '3',
        EXECUTION_LEASE_SECONDS: '5',
        SYNC_WEBHOOK_TIMEOUT_SECONDS: '10',
        MCP_TOOL_TIMEOUT_SECONDS: '90',
        WEBHOOK_RATE_LIMIT_PER_FLOW: '0',
        WEBHOOK_RATE_LIMIT_BURST: '50',
        WEBHOOK_MAX_PENDING: '20',
        WEBHOOK_MAX_BACKLOG: '300',
        WEBHOOK_MAX_BACKLOG_PER_FLOW: '100',
        LICENSE_KEY: 'payload.signature',
        LICENSE_PUBLIC_KEY: PUBLIC_KEY_PEM,
        SHUTDOWN_TIMEOUT_SECONDS: '45',
        METRICS_TOKEN: 'a-scrape-token-0123',
        QUEUE: 'local',
        QUEUE_PG_BOSS_SCHEMA: 'conveyor_jobs',
        QUEUE_MAX_ATTEMPTS: '3',
        QUEUE_LEASE_SECONDS: '120',
        QUEUE_POLL_INTERVAL_MS: '250',
      },
      '/var/lib/conveyor',
    );
    expect(config).toEqual({
      appAddresses: { APP_BASE_URL_TELEGRAM_BOT: 'http://127.0.0.1:8081/telegram' },
      nodeEnv: 'production',
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgres://conveyor@db/conveyor',
      dataDirectory: '/var/lib/conveyor',
      databasePoolSize: 25,
      databasePoolTimeoutMs: 750,
      sqliteSynchronous: 'full',
      encryptionKey: KEY,
      previousEncryptionKeys: [OLD_KEY, OLDER_KEY],
      webAppUrl: 'https://conveyor.example.com',
      corsOrigins: ['https://conveyor.example.com', 'https://automatisch.example.com', 'http://localhost:3001'],
      docsUrl: 'https://docs.example.com',
      webhookUrl: 'https://hooks.example.com',
      webConsoleDir: '/srv/conveyor/web',
      smtpUrl: 'smtps://user:pass@mail.example.com',
      mailFrom: 'Ops <ops@example.com>',
      logLevel: 'debug',
      accessTokenTtlMs: DAY_MS,
      bodyLimitBytes: 2048,
      trustedProxies: 1,
      rateLimits: loadConfig({}).rateLimits,
      allowPrivateNetworks: true,
      mcpStdioAllowed: true,
      workerConcurrency: 8,
      serverRunsFlows: false,
      codeWorkers: 3,
      codeWorkersPerFlow: 2,
      heapGrowthPercent: 0,
      executionRetentionMs: 7 * DAY_MS,
      flowVersionsKeep: 50,
      loopItemsMax: 500,
      listenerMaxBacklog: 40,
      callDepthMax: 3,
      executionLeaseMs: 5_000,
      syncWebhookTimeoutMs: 10_000,
      testEventMaxWaitMs: 120_000,
      mcpToolTimeoutMs: 90_000,
      webhookIntake: { flowRatePerSecond: 0, flowBurst: 50, maxPending: 20, maxBacklog: 300, maxFlowBacklog: 100 },
      licenseKey: 'payload.signature',
      licensePublicKey: PUBLIC_KEY_PEM,
      shutdownTimeoutMs: 45_000,
      metricsToken: 'a-scrape-token-0123',
      billing: null,
      queue: 'local',
      queuePgBossSchema: 'conveyor_jobs',
      queueMaxAttempts: 3,
      queueLeaseMs: 120_000,
      queuePollIntervalMs: 250,
    });
  });

  it('picks pg-boss on Postgres and the local queue on SQLite, unless QUEUE says otherwise', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/conveyor' }).queue).toBe('pg-boss');
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/conveyor', QUEUE: 'local' }).queue).toBe('local');
    expect(loadConfig({ DATABASE_URL: './data/x.db' }).queue).toBe('local');
    expect(refusal({ DATABASE_URL: './data/x.db', QUEUE: 'pg-boss' })).toContain(
      'QUEUE pg-boss needs a postgres:// DATABASE_URL',
    );
  });

  it('turns billing on only with a webhook secret and valid plans', () => {
    expect(loadConfig({}).billing).toBeNull();
    const plans =
      '[{"id":"pri_pro","name":"Pro","quota":10000,"price":"€50"},{"id":"pri_max","name":"Max","quota":null,"price":null}]';
    const on = loadConfig({
      BILLING_ENABLED: 'true',
      BILLING_WEBHOOK_SECRET: 'pdl_ntfset_0123456789',
      BILLING_PLANS: plans,
    });
    expect(on.billing).toEqual({
      webhookSecret: 'pdl_ntfset_0123456789',
      webhookToleranceMs: 300_000,
      plans: [
        { id: 'pri_pro', name: 'Pro', quota: 10_000, price: '€50' },
        { id: 'pri_max', name: 'Max', quota: null, price: null },
      ],
      freePlan: { id: 'free', name: 'Free', quota: 100, price: null },
    });
    expect(refusal({ BILLING_ENABLED: 'true' })).toContain('billing needs BILLING_WEBHOOK_SECRET and BILLING_PLANS');
    const secret = { BILLING_ENABLED: 'true', BILLING_WEBHOOK_SECRET: 'pdl_ntfset_0123456789' };
    expect(refusal({ ...secret, BILLING_PLANS: 'not json' })).toContain('BILLING_PLANS must be a JSON array');
    expect(refusal({ ...secret, BILLING_PLANS: '[{"id":"a","name":"A","quota":-1,"price":null}]' })).toContain(
      'BILLING_PLANS',
    );
    expect(
      refusal({
        ...secret,
        BILLING_PLANS: '[{"id":"a","name":"A","quota":1,"price":null},{"id":"a","name":"B","quota":2,"price":null}]',
      }),
    ).toContain('must not repeat a plan id');
  });

  it('derives the default web app URL from PORT', () => {
    expect(loadConfig({ PORT: '8080' }).webAppUrl).toBe('http://localhost:8080');
  });

  it('takes webhook addresses from the web app URL unless WEBHOOK_URL says otherwise', () => {
    expect(loadConfig({ WEB_APP_URL: 'https://conveyor.example.com' }).webhookUrl).toBe('https://conveyor.example.com');
    expect(loadConfig({ PORT: '8080' }).webhookUrl).toBe('http://localhost:8080');
    expect(() => loadConfig({ WEBHOOK_URL: 'ftp://hooks.example.com' })).toThrow(/WEBHOOK_URL/);
  });

  it('allows the web app’s origin, not its path, for CORS, and other origins only when listed', () => {
    expect(loadConfig({ WEB_APP_URL: 'https://example.com/conveyor' }).corsOrigins).toEqual(['https://example.com']);
    expect(loadConfig({ CORS_ORIGINS: 'HTTP://App.Example.com:8080, https://b.example.com:443' }).corsOrigins).toEqual([
      'http://localhost:3000',
      'http://app.example.com:8080',
      'https://b.example.com',
    ]);
  });

  it('trims numbers', () => {
    expect(loadConfig({ PORT: ' 8080 ' }).port).toBe(8080);
  });

  it('removes trailing slashes from WEB_APP_URL and DOCS_URL', () => {
    expect(loadConfig({ WEB_APP_URL: 'https://conveyor.example.com/' }).webAppUrl).toBe('https://conveyor.example.com');
    expect(loadConfig({ WEB_APP_URL: 'https://example.com/conveyor///' }).webAppUrl).toBe(
      'https://example.com/conveyor',
    );
    expect(loadConfig({ DOCS_URL: 'http://docs.example.com/' }).docsUrl).toBe('http://docs.example.com');
  });

  it.each([
    ['true', 1],
    ['1', 1],
    ['2', 2],
    ['false', 0],
    ['0', 0],
  ])('reads TRUST_PROXY=%s as %s trusted proxies', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustedProxies).toBe(expected);
  });

  it('reads every rate limit as attempts/window', () => {
    const config = loadConfig({
      RATE_LIMIT_SIGN_IN: '5/10m',
      RATE_LIMIT_SIGN_IN_IP: ' 50 / 1h ',
      RATE_LIMIT_FORGOT_PASSWORD: '2/30s',
      RATE_LIMIT_FORGOT_PASSWORD_IP: '20/2h',
      RATE_LIMIT_SAML_IP: '1000/15m',
      RATE_LIMIT_MCP_IP: '20/1m',
    });
    expect(config.rateLimits).toEqual({
      signIn: { limit: 5, windowMs: 10 * 60_000 },
      signInPerAddress: { limit: 50, windowMs: 60 * 60_000 },
      forgotPassword: { limit: 2, windowMs: 30_000 },
      forgotPasswordPerAddress: { limit: 20, windowMs: 2 * 60 * 60_000 },
      samlSignInPerAddress: { limit: 1000, windowMs: 15 * 60_000 },
      mcpTokenPerAddress: { limit: 20, windowMs: 60_000 },
    });
  });

  it('refuses a rate limit that is not attempts/window', () => {
    const message = refusal({
      RATE_LIMIT_SIGN_IN: '10',
      RATE_LIMIT_SIGN_IN_IP: '0/15m',
      RATE_LIMIT_FORGOT_PASSWORD: '5/15d',
      RATE_LIMIT_SAML_IP: '5/0m',
    });
    expect(message).toContain('RATE_LIMIT_SIGN_IN must be attempts/window, such as 10/15m (window in s, m or h);');
    expect(message).toContain('RATE_LIMIT_SIGN_IN_IP must allow at least 1 attempt;');
    expect(message).toContain('RATE_LIMIT_FORGOT_PASSWORD must be attempts/window');
    expect(message).toContain('RATE_LIMIT_SAML_IP must have a window of 1s to 168h.');
  });

  it.each([
    ['PORT', 'abc', 'must be a whole number'],
    ['PORT', '-1', 'must be a whole number'],
    ['PORT', '3.5', 'must be a whole number'],
    ['PORT', '65536', 'must be at most 65535'],
    ['DATABASE_POOL_SIZE', '0', 'must be at least 1'],
    ['ACCESS_TOKEN_TTL_DAYS', '366', 'must be at most 365'],
    ['BODY_LIMIT_BYTES', '100', 'must be at least 1024'],
    ['WEB_APP_URL', 'not a url', 'must be a URL'],
    ['WEB_APP_URL', 'ftp://files.example.com', 'must start with http:// or https://'],
    ['DOCS_URL', 'ftp://files.example.com', 'must start with http:// or https://'],
    ['CORS_ORIGINS', '*', 'must be a comma-separated list of origins'],
    ['CORS_ORIGINS', 'https://app.example.com/path', 'must be a comma-separated list of origins'],
    ['CORS_ORIGINS', 'app.example.com', 'must be a comma-separated list of origins'],
    ['CORS_ORIGINS', 'null', 'must be a comma-separated list of origins'],
    ['CORS_ORIGINS', 'https://user@app.example.com', 'must be a comma-separated list of origins'],
    ['CORS_ORIGINS', 'https://a.example.com,ftp://b.example.com', 'must be a comma-separated list of origins'],
    ['SMTP_URL', 'http://mail.example.com', 'must start with smtp:// or smtps://'],
    ['QUEUE_MAX_ATTEMPTS', '0', 'must be at least 1'],
    ['HEAP_GROWTH_PERCENT', '1001', 'must be at most 1000'],
    ['HEAP_GROWTH_PERCENT', '-5', 'must be a whole number'],
    ['QUEUE_PG_BOSS_SCHEMA', 'Boss; drop', 'must be a lower-case Postgres name (letters, digits, _; at most 50)'],
    ['NODE_ENV', 'staging', 'must be one of development, production, test'],
    ['LOG_LEVEL', 'loud', 'must be one of fatal, error, warn, info, debug, trace, silent'],
    ['TRUST_PROXY', 'yes', 'must be true, false or the number of proxies in front of the server'],
    ['QUEUE', 'redis', 'must be one of local, pg-boss'],
    ['SQLITE_SYNCHRONOUS', 'off', 'must be one of normal, full'],
    ['ENCRYPTION_KEY', 'short', 'must be 32 bytes, as 64 hex characters or base64'],
    ['ENCRYPTION_KEYS_PREVIOUS', `${'a'.repeat(64)},short`, 'must be a comma-separated list of keys'],
    ['LICENSE_PUBLIC_KEY', 'not a key', 'must be an Ed25519 public key'],
  ])('refuses %s=%s: %s', (name, value, message) => {
    expect(refusal({ [name]: value })).toContain(`${name} ${message}`);
  });

  it.each([
    ['HOST', '   '],
    ['LICENSE_KEY', '  '],
    ['LICENSE_PUBLIC_KEY', '\\n'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(refusal({ [name]: value })).toMatch(new RegExp(`: ${name} must `));
  });

  it.each([
    ['a MySQL URL', 'mysql://root@localhost/x'],
    ['a SQLite URL', 'sqlite:///var/lib/conveyor.db'],
    ['a file URL', 'file:///var/lib/conveyor.db'],
  ])('refuses %s as DATABASE_URL rather than take it for a file path', (_, url) => {
    const message = refusal({ DATABASE_URL: url });
    expect(message).toContain(
      'DATABASE_URL must be a postgres:// (or postgresql://) URL, or the path of a SQLite file; no other database is supported',
    );
  });

  it('refuses a postgres:// URL that is not a URL, without echoing it', () => {
    const message = refusal({ DATABASE_URL: 'postgres://user:hunter2@db:port/conveyor' });
    expect(message).toContain('DATABASE_URL is not a valid URL');
    expect(message).not.toContain('hunter2');
  });

  it('takes a SQLite path, absolute, relative or in memory, and both Postgres schemes', () => {
    for (const url of ['/var/lib/conveyor/conveyor.db', 'data/conveyor.db', ':memory:', 'C:\\data\\conveyor.db']) {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    }
    for (const url of ['postgres://db/conveyor', 'POSTGRESQL://u:p@db:5432/conveyor?sslmode=require']) {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    }
  });

  it('requires ENCRYPTION_KEY in production', () => {
    expect(refusal({ NODE_ENV: 'production' })).toContain('ENCRYPTION_KEY is required when NODE_ENV=production');
    expect(loadConfig({ NODE_ENV: 'production', ENCRYPTION_KEY: KEY }).encryptionKey).toBe(KEY);
  });

  it('reports every invalid variable at once, on one line that says what to do', () => {
    const message = refusal({ PORT: 'abc', LOG_LEVEL: 'loud', ENCRYPTION_KEY: 'short' });
    expect(message).toMatch(/^Invalid configuration: /);
    expect(message).toContain('PORT must be a whole number; ');
    expect(message).toContain('LOG_LEVEL must be one of');
    expect(message).toContain('ENCRYPTION_KEY must be 32 bytes');
    expect(message).toMatch(/Correct these environment variables .* and start again\.$/);
    expect(message).not.toContain('\n');
  });

  it("says what is wrong in plain words, never in the validator's notation", () => {
    const message = refusal({
      NODE_ENV: 'staging',
      LOG_LEVEL: 'loud',
      TRUST_PROXY: 'yes',
      SQLITE_SYNCHRONOUS: 'off',
      QUEUE: 'redis',
      BILLING_ENABLED: 'maybe',
      BILLING_WEBHOOK_SECRET: 'pdl_ntfset_0123456789',
      BILLING_PLANS: '[{"id":"","name":2,"quota":-1,"price":3,"extra":1}, 5]',
    });
    expect(message).not.toMatch(/Invalid (type|length|value|key)|Expected|received/);
    expect(refusal({ NODE_ENV: 'staging' })).not.toContain('"');
  });

  it('gives each variable its problems as values too', () => {
    try {
      loadConfig({ PORT: 'abc', NODE_ENV: 'production' });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        { variable: 'PORT', message: 'must be a whole number.' },
        { variable: 'ENCRYPTION_KEY', message: expect.stringContaining('is required when NODE_ENV=production') },
      ]);
      return;
    }
    throw new Error('expected a refusal');
  });

  it('reports many invalid variables together, and none of the valid ones', () => {
    const message = refusal({
      PORT: 'abc',
      LOG_LEVEL: 'loud',
      NODE_ENV: 'staging',
      TRUST_PROXY: 'yes',
      SMTP_URL: 'http://mail.example.com',
      BODY_LIMIT_BYTES: '10',
      HOST: '0.0.0.0',
    });
    for (const name of ['PORT', 'LOG_LEVEL', 'NODE_ENV', 'TRUST_PROXY', 'SMTP_URL', 'BODY_LIMIT_BYTES']) {
      expect(message).toMatch(new RegExp(`[:;] ${name} must `));
    }
    expect(message).not.toContain('HOST');
  });

  it('refuses a METRICS_TOKEN that is short or has spaces, without echoing it', () => {
    const short = refusal({ METRICS_TOKEN: 'tiny-token' });
    expect(short).toContain('METRICS_TOKEN must be at least 16 characters');
    expect(short).not.toContain('tiny-token');
    expect(refusal({ METRICS_TOKEN: 'a token with spaces' })).toContain('METRICS_TOKEN must not contain spaces');
  });

  it('does not echo a rejected SMTP_URL, which may hold a password', () => {
    expect(refusal({ SMTP_URL: 'http://user:hunter2@mail.example.com' })).not.toContain('hunter2');
  });

  describe('licence variables', () => {
    it('keeps a PEM given with real newlines, trimmed', () => {
      expect(loadConfig({ LICENSE_PUBLIC_KEY: `\n${PUBLIC_KEY_PEM}\n` }).licensePublicKey).toBe(PUBLIC_KEY_PEM);
    });

    it('reads literal \\n escapes as newlines, as one-line .env values carry them', () => {
      const oneLine = PUBLIC_KEY_PEM.replaceAll('\n', '\\n');
      expect(oneLine).not.toContain('\n');
      expect(loadConfig({ LICENSE_PUBLIC_KEY: `${oneLine}\\n` }).licensePublicKey).toBe(PUBLIC_KEY_PEM);
    });

    it('takes a one-line base64 public key as it is', () => {
      const raw = 'ECAKEUi+oCO7e7tpMvwK86aSSVzg12CidRffZUWt+60=';
      expect(loadConfig({ LICENSE_PUBLIC_KEY: raw }).licensePublicKey).toBe(raw);
    });

    it('trims the licence text, e.g. a trailing newline or escape pasted with it', () => {
      expect(loadConfig({ LICENSE_KEY: ' abc.def\n' }).licenseKey).toBe('abc.def');
      expect(loadConfig({ LICENSE_KEY: 'abc.def\\n' }).licenseKey).toBe('abc.def');
    });

    it("does not judge the licence itself: a malformed one is the licence source's business", () => {
      expect(loadConfig({ LICENSE_KEY: 'not a licence' }).licenseKey).toBe('not a licence');
    });
  });
});
