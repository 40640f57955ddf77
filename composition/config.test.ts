import { describe, expect, it } from 'vitest';
import { ConfigError, defaultDataDirectory, loadConfig } from './config.js';

const DAY_MS = 24 * 60 * 60 * 1000;
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

  it('keeps the default folder for a Postgres or in-memory database', () => {
    const postgres = 'postgres://conveyor@db/conveyor';
    expect(loadConfig({ DATABASE_URL: postgres }, '/home/ann/.conveyor').dataDirectory).toBe('/home/ann/.conveyor');
    expect(loadConfig({ DATABASE_URL: ':memory:' }, '/home/ann/.conveyor').dataDirectory).toBe('/home/ann/.conveyor');
  });
});

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({}, './data')).toEqual({
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
      docsUrl: null,
      webhookUrl: 'http://localhost:3000',
      webConsoleDir: null,
      smtpUrl: null,
      mailFrom: 'Conveyor <no-reply@localhost>',
      logLevel: 'info',
      accessTokenTtlMs: 14 * DAY_MS,
      bodyLimitBytes: 1024 * 1024,
      trustProxy: false,
      allowPrivateNetworks: false,
      workerConcurrency: 50,
      serverRunsFlows: true,
      heapGrowthPercent: 50,
      codeWorkers: null,
      executionRetentionMs: 30 * DAY_MS,
      executionLeaseMs: 30_000,
      syncWebhookTimeoutMs: 30_000,
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
        ENCRYPTION_KEY: 'a-key',
        ENCRYPTION_KEYS_PREVIOUS: ' old-1 , old-2,',
        WEB_APP_URL: 'https://conveyor.example.com',
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
        WORKER_CONCURRENCY: '8',
        CODE_WORKERS: '3',
        HEAP_GROWTH_PERCENT: '0',
        SERVER_RUNS_FLOWS: 'false',
        EXECUTION_RETENTION_DAYS: '7',
        EXECUTION_LEASE_SECONDS: '5',
        SYNC_WEBHOOK_TIMEOUT_SECONDS: '10',
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
      nodeEnv: 'production',
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgres://conveyor@db/conveyor',
      dataDirectory: '/var/lib/conveyor',
      databasePoolSize: 25,
      databasePoolTimeoutMs: 750,
      sqliteSynchronous: 'full',
      encryptionKey: 'a-key',
      previousEncryptionKeys: ['old-1', 'old-2'],
      webAppUrl: 'https://conveyor.example.com',
      docsUrl: 'https://docs.example.com',
      webhookUrl: 'https://hooks.example.com',
      webConsoleDir: '/srv/conveyor/web',
      smtpUrl: 'smtps://user:pass@mail.example.com',
      mailFrom: 'Ops <ops@example.com>',
      logLevel: 'debug',
      accessTokenTtlMs: DAY_MS,
      bodyLimitBytes: 2048,
      trustProxy: true,
      allowPrivateNetworks: true,
      workerConcurrency: 8,
      serverRunsFlows: false,
      codeWorkers: 3,
      heapGrowthPercent: 0,
      executionRetentionMs: 7 * DAY_MS,
      executionLeaseMs: 5_000,
      syncWebhookTimeoutMs: 10_000,
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
      'QUEUE: pg-boss needs a postgres:// DATABASE_URL.',
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
    expect(refusal({ ...secret, BILLING_PLANS: 'not json' })).toContain('BILLING_PLANS: must be a JSON array');
    expect(refusal({ ...secret, BILLING_PLANS: '[{"id":"a","name":"A","quota":-1,"price":null}]' })).toContain(
      'BILLING_PLANS',
    );
    expect(
      refusal({
        ...secret,
        BILLING_PLANS: '[{"id":"a","name":"A","quota":1,"price":null},{"id":"a","name":"B","quota":2,"price":null}]',
      }),
    ).toContain('must not repeat a plan id.');
  });

  it('derives the default web app URL from PORT', () => {
    expect(loadConfig({ PORT: '8080' }).webAppUrl).toBe('http://localhost:8080');
  });

  it('takes webhook addresses from the web app URL unless WEBHOOK_URL says otherwise', () => {
    expect(loadConfig({ WEB_APP_URL: 'https://conveyor.example.com' }).webhookUrl).toBe('https://conveyor.example.com');
    expect(loadConfig({ PORT: '8080' }).webhookUrl).toBe('http://localhost:8080');
    expect(() => loadConfig({ WEBHOOK_URL: 'ftp://hooks.example.com' })).toThrow(/WEBHOOK_URL/);
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
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('reads TRUST_PROXY=%s as %s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(expected);
  });

  it.each([
    ['PORT', 'abc', 'must be a whole number.'],
    ['PORT', '-1', 'must be a whole number.'],
    ['PORT', '3.5', 'must be a whole number.'],
    ['PORT', '65536', 'must be at most 65535.'],
    ['DATABASE_POOL_SIZE', '0', 'must be at least 1.'],
    ['ACCESS_TOKEN_TTL_DAYS', '366', 'must be at most 365.'],
    ['BODY_LIMIT_BYTES', '100', 'must be at least 1024.'],
    ['WEB_APP_URL', 'not a url', 'must be a URL.'],
    ['WEB_APP_URL', 'ftp://files.example.com', 'must start with http:// or https://.'],
    ['DOCS_URL', 'ftp://files.example.com', 'must start with http:// or https://.'],
    ['SMTP_URL', 'http://mail.example.com', 'must start with smtp:// or smtps://.'],
    ['QUEUE_MAX_ATTEMPTS', '0', 'must be at least 1.'],
    ['HEAP_GROWTH_PERCENT', '1001', 'must be at most 1000.'],
    ['HEAP_GROWTH_PERCENT', '-5', 'must be a whole number.'],
    ['QUEUE_PG_BOSS_SCHEMA', 'Boss; drop', 'must be a lower-case Postgres name (letters, digits, _; at most 50).'],
  ])('refuses %s=%s: %s', (name, value, message) => {
    expect(refusal({ [name]: value })).toContain(`${name}: ${message}`);
  });

  it.each([
    ['NODE_ENV', 'staging'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'yes'],
    ['HOST', '   '],
    ['LICENSE_KEY', '  '],
    ['LICENSE_PUBLIC_KEY', '\\n'],
    ['QUEUE', 'redis'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(refusal({ [name]: value })).toMatch(new RegExp(`^ {2}${name}: `, 'm'));
  });

  it('reports every invalid variable at once, in one ConfigError', () => {
    const message = refusal({ PORT: 'abc', LOG_LEVEL: 'loud' });
    expect(message).toMatch(/^Invalid configuration:\n/);
    expect(message).toContain('PORT: must be a whole number.');
    expect(message).toMatch(/^ {2}LOG_LEVEL: .*loud/m);
    expect(message.split('\n')).toHaveLength(3);
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
      expect(message).toMatch(new RegExp(`^ {2}${name}: `, 'm'));
    }
    expect(message).not.toContain('HOST');
  });

  it('refuses a METRICS_TOKEN that is short or has spaces, without echoing it', () => {
    const short = refusal({ METRICS_TOKEN: 'tiny-token' });
    expect(short).toContain('METRICS_TOKEN: must be at least 16 characters.');
    expect(short).not.toContain('tiny-token');
    expect(refusal({ METRICS_TOKEN: 'a token with spaces' })).toContain('METRICS_TOKEN: must not contain spaces.');
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
