import type { Credentials } from '../../../core/domain/app.js';
import { errorMessage } from '../../../core/domain/errors.js';
import type { OAuthClientSettings } from '../../../ports/app-catalog.js';
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
import type { HttpTransport } from './http-transport.js';

export interface SessionOptions {
  readonly app: App;
  readonly transport: HttpTransport;
  readonly logger: Logger;
  readonly credentials: Credentials;
  readonly client: OAuthClientSettings | null;
  /** Receives the whole credentials whenever a hook or a token refresh changes them. */
  readonly saveCredentials?: (credentials: Credentials) => Promise<void>;
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
  /** The credentials as they are now, refreshed tokens included. */
  credentials(): Credentials;
  context<P>(parameters: P): AppContext<P>;
}

const scoped = (logger: Logger, fields: Readonly<Record<string, unknown>>): Logger => ({
  debug: (extra, message) => logger.debug({ ...fields, ...extra }, message),
  info: (extra, message) => logger.info({ ...fields, ...extra }, message),
  warn: (extra, message) => logger.warn({ ...fields, ...extra }, message),
  error: (extra, message) => logger.error({ ...fields, ...extra }, message),
});

export const openSession = (options: SessionOptions): Session => {
  const { app, transport } = options;
  let credentials = options.credentials;
  const log = scoped(options.logger, { app: app.key, ...options.logFields });
  const signal = options.signal ?? new AbortController().signal;
  const store = options.store ?? createMemoryStore();

  const auth: AuthAccess = {
    get data() {
      return credentials;
    },
    client: options.client,
    async set(partial) {
      credentials = { ...credentials, ...partial };
      await options.saveCredentials?.(credentials);
    },
  };

  const bareHttp = createHttpClient({ transport, signal, log });

  const authHeaders = (): Readonly<Record<string, string>> => {
    switch (app.auth.kind) {
      case 'none':
        return {};
      case 'fields':
        return app.auth.headers ? app.auth.headers(app.auth.read(auth)) : {};
      case 'oauth2':
        return app.auth.headers(credentials);
    }
  };

  const refreshAuth = async (): Promise<boolean> => {
    if (app.auth.kind !== 'oauth2') return false;
    const refreshToken = credentials.refreshToken;
    if (typeof refreshToken !== 'string' || refreshToken === '' || !options.client) return false;
    try {
      const tokens = await app.auth.refresh(bareHttp, options.client, refreshToken);
      await auth.set(tokens);
      log.info({}, 'refreshed the OAuth access token');
      return true;
    } catch (error) {
      // The provider's reason helps the user reconnect; tokens never appear in it.
      log.warn({ reason: errorMessage(error) }, 'could not refresh the OAuth access token');
      return false;
    }
  };

  const { baseUrl, headers } = app.http;
  const http = createHttpClient({
    transport,
    signal,
    log,
    baseUrl: () => (typeof baseUrl === 'function' ? baseUrl(auth) : baseUrl),
    ...(headers && { headers: () => headers }),
    authHeaders,
    refreshAuth,
  });

  return {
    auth,
    bareHttp,
    credentials: () => credentials,
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
    }),
  };
};
