import type { Credentials } from '../../../core/domain/app.js';
import { errorMessage } from '../../../core/domain/errors.js';
import type { ChangeCredentials, OAuthClientSettings } from '../../../ports/app-catalog.js';
import type { Logger } from '../../../ports/logger.js';
import {
  type AppContext,
  type AuthAccess,
  createMemoryStore,
  type ExecutionInfo,
  type RunAccess,
  type Store,
} from './context.js';
import type { App } from './define.js';
import { createHttpClient, type HttpClient } from './http-client.js';
import { HttpRequestError } from './http-errors.js';
import { guardedFetch, type HttpTransport } from './http-transport.js';
import { TemporaryError } from './temporary-error.js';
import { AuthorizationRevokedError, isRevocation } from './token-grant.js';

export interface SessionOptions {
  readonly app: App;
  readonly transport: HttpTransport;
  readonly logger: Logger;
  readonly credentials: Credentials;
  readonly client: OAuthClientSettings | null;
  /**
   * How renewed tokens and values a hook sets reach the stored connection, under its lock. Without
   * it (credentials not stored yet) they stay in the session, which `credentials()` answers.
   */
  readonly changeCredentials?: ChangeCredentials;
  readonly signal?: AbortSignal;
  readonly execution?: ExecutionInfo | null;
  readonly run?: RunAccess | null;
  readonly store?: Store;
  /** Added to every log line of the app (step key...). */
  readonly logFields?: Readonly<Record<string, unknown>>;
}

/** One use of an app with one connection: the contexts its hooks get share the credentials. */
export interface Session {
  readonly auth: AuthAccess;
  /** An HTTP client without the app's base URL or credentials (token endpoints). */
  readonly bareHttp: HttpClient;
  /** The credentials as they are now, renewed tokens included. */
  credentials(): Credentials;
  /** Gets a new access token now, for auth kinds that keep one (a check that the fields get one). */
  renewToken(): Promise<void>;
  context<P>(parameters: P): AppContext<P>;
}

const scoped = (logger: Logger, fields: Readonly<Record<string, unknown>>): Logger => ({
  debug: (extra, message) => logger.debug({ ...fields, ...extra }, message),
  info: (extra, message) => logger.info({ ...fields, ...extra }, message),
  warn: (extra, message) => logger.warn({ ...fields, ...extra }, message),
  error: (extra, message) => logger.error({ ...fields, ...extra }, message),
});

const sameHeaders = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/** A provider's reason, without any value of the credentials or client it might repeat. */
const masked = (reason: string, ...sources: ReadonlyArray<Readonly<Record<string, unknown>> | null>) => {
  let text = reason;
  for (const source of sources) {
    for (const value of Object.values(source ?? {})) {
      if (typeof value === 'string' && value.length >= 4) text = text.split(value).join('[redacted]');
    }
  }
  return text;
};

const isPassing = (error: unknown) =>
  error instanceof TemporaryError || (error instanceof HttpRequestError && error.retryable);

const unexpired = (stored: Credentials, now: number) =>
  typeof stored.accessToken === 'string' && typeof stored.expiresAt === 'string' && Date.parse(stored.expiresAt) > now;

/** Changes applied one at a time to credentials that live only in this session. */
const inMemoryChanges = (read: () => Credentials): ChangeCredentials => {
  let queue: Promise<unknown> = Promise.resolve();
  return (change) => {
    const result = queue.then(async () => {
      const next = await change(read());
      return next?.credentials ?? read();
    });
    queue = result.catch(() => {});
    return result;
  };
};

export const openSession = (options: SessionOptions): Session => {
  const { app, transport, client } = options;
  let credentials = options.credentials;
  const log = scoped(options.logger, { app: app.key, ...options.logFields });
  const signal = options.signal ?? new AbortController().signal;
  const store = options.store ?? createMemoryStore();
  const change = options.changeCredentials ?? inMemoryChanges(() => credentials);
  const grant = app.auth.kind === 'none' ? undefined : app.auth.token;

  const auth: AuthAccess = {
    get data() {
      return credentials;
    },
    client,
    async set(partial) {
      credentials = await change(async (stored) => ({ credentials: { ...stored, ...partial } }));
    },
  };

  // The connection's secret values never show in an address a message or log repeats (the Bot
  // API takes a token in the path), as typed and as percent-encoded.
  const redact = (text: string) =>
    app.manifest.auth.fields
      .filter((field) => field.secret)
      .map((field) => credentials[field.key])
      .filter((value): value is string => typeof value === 'string' && value.length >= 4)
      .flatMap((value) => [value, encodeURIComponent(value)])
      .reduce((shown, value) => shown.split(value).join('[redacted]'), text);

  const bareHttp = createHttpClient({ transport, signal, log, redact });

  const headersNow = (): Readonly<Record<string, string>> => {
    if (grant) return grant.headers(credentials);
    if (app.auth.kind === 'fields' && app.auth.headers) return app.auth.headers(app.auth.read(auth));
    return {};
  };

  /**
   * Renews the access token that `used` was, under the connection's lock, from the credentials as
   * stored then: when another user of the connection renewed it meanwhile, its token is taken
   * instead, so that one refresh token is never spent twice. `force` renews a token that is not
   * due yet (the provider just refused it).
   */
  const renew = async (used: unknown, force: boolean): Promise<void> => {
    if (!grant) return;
    let revoked: string | null = null;
    let renewed = false;
    credentials = await change(async (stored) => {
      const due = grant.due(stored, Date.now());
      if ((stored.accessToken !== used || !force) && !due) return null;
      try {
        const next = await grant.obtain(bareHttp, stored, client);
        renewed = next !== null;
        return next && { credentials: next };
      } catch (error) {
        const reason = masked(errorMessage(error), stored, client);
        log.warn({ reason }, 'could not renew the access token');
        if (!isRevocation(error)) throw error;
        // Marked while the lock is held, so that the connection list shows it needs reconnecting.
        revoked = reason.replace(/^Authorization failed: /, '');
        return { verified: false };
      }
    });
    if (revoked !== null) throw new AuthorizationRevokedError(app.manifest.name, revoked);
    if (renewed) log.info({}, 'renewed the access token');
  };

  const authHeaders = async () => {
    if (grant?.due(credentials, Date.now())) {
      try {
        await renew(credentials.accessToken, false);
      } catch (error) {
        // While the token endpoint is briefly away, a token that has not expired yet still serves.
        if (!isPassing(error) || !unexpired(credentials, Date.now())) throw error;
      }
    }
    return headersNow();
  };

  const refreshAuth = async (sent: Readonly<Record<string, string>>): Promise<boolean> => {
    if (!grant) return false;
    // Another request of this session renewed the token after this one was sent: just retry.
    if (!sameHeaders(sent, headersNow())) return true;
    const before = credentials.accessToken;
    await renew(before, true);
    return credentials.accessToken !== before;
  };

  const authQuery = (): Readonly<Record<string, string>> =>
    app.auth.kind === 'fields' && app.auth.query ? app.auth.query(app.auth.read(auth)) : {};

  const { baseUrl, connectionBaseUrl, headers, relatedApis = [], replacedBaseUrl } = app.http;
  // An overridden base URL (a proxy, a test's fake vendor) stands for the vendor's other APIs too,
  // and for absolute URLs on the vendor's own.
  const relatedTargets = [...relatedApis, ...(replacedBaseUrl ? [replacedBaseUrl] : [])].map((from) => ({
    from,
    to: replacedBaseUrl && baseUrl ? baseUrl : from,
  }));
  const http = createHttpClient({
    transport,
    signal,
    log,
    redact,
    // A server the connection names (a self-hosted edition) wins over the vendor's.
    baseUrl: () => connectionBaseUrl?.(auth) ?? baseUrl,
    ...(headers && { headers: () => headers }),
    authHeaders,
    authQuery,
    ...(relatedTargets.length > 0 && { relatedApis: () => relatedTargets }),
    refreshAuth,
  });

  return {
    auth,
    bareHttp,
    credentials: () => credentials,
    renewToken: () => renew(credentials.accessToken, true),
    context: (parameters) => ({
      parameters,
      auth,
      http,
      store,
      log,
      signal,
      execution: options.execution ?? null,
      run: options.run ?? null,
      network: transport.policy,
      fetch: guardedFetch(transport, signal),
      apiBaseUrl: connectionBaseUrl?.(auth) ?? baseUrl,
    }),
  };
};
