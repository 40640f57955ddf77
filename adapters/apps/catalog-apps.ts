import type { AppDescription } from '../../core/domain/app.js';
import type { ConnectionUse } from '../../ports/app-catalog.js';
import type { Logger } from '../../ports/logger.js';
import type { App, ExecutionInfo, HttpTransport, RunAccess, Store } from './sdk/index.js';
import { openSession, type Session } from './sdk/session.js';

/** The catalog's apps by key. */
export interface AppsByKey {
  /** Undefined for a key no app has: keys from outside (a request) may name anything. */
  find(appKey: string): App | undefined;
  /** For keys the core has already checked: a key no app has is a bug, and throws. */
  get(appKey: string): App;
  /** The descriptions, by name (then key). */
  readonly listed: readonly AppDescription[];
}

export const indexApps = (list: readonly App[]): AppsByKey => {
  const apps = new Map<string, App>();
  for (const app of list) {
    if (apps.has(app.key)) throw new Error(`Two apps have the key "${app.key}".`);
    apps.set(app.key, app);
  }
  return {
    find: (appKey) => apps.get(appKey),
    get(appKey) {
      const app = apps.get(appKey);
      if (!app) throw new Error(`${appKey} is not a known app.`);
      return app;
    },
    listed: [...apps.values()]
      .map((app) => app.manifest)
      .sort((a, b) => a.name.localeCompare(b.name) || a.key.localeCompare(b.key)),
  };
};

/** Own keys only: a key such as `constructor` must not reach Object's methods (with the credentials). */
export const ownEntry = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

export interface SessionExtras {
  readonly signal?: AbortSignal;
  readonly execution?: ExecutionInfo | null;
  readonly run?: RunAccess | null;
  readonly store?: Store;
  /** The step key, added to the app's log lines. */
  readonly step?: string;
}

/** Opens a session of an app with a connection (or none), over the catalog's HTTP transport. */
export type OpenSession = (app: App, connection: ConnectionUse | null, extra?: SessionExtras) => Session;

export const sessionOpener =
  (transport: HttpTransport, logger: Logger): OpenSession =>
  (app, connection, extra = {}) =>
    openSession({
      app,
      transport,
      logger,
      credentials: connection?.credentials ?? {},
      client: connection?.oauth?.client ?? null,
      ...(connection?.change && { changeCredentials: connection.change }),
      ...(extra.signal && { signal: extra.signal }),
      ...(extra.execution !== undefined && { execution: extra.execution }),
      ...(extra.run !== undefined && { run: extra.run }),
      ...(extra.store && { store: extra.store }),
      ...(extra.step && { logFields: { step: extra.step } }),
    });

/** What each part of the catalog works with. */
export interface CatalogParts {
  readonly apps: AppsByKey;
  readonly open: OpenSession;
  readonly logger: Logger;
}
