import type { AppCatalog, ConnectionUse } from '../../ports/app-catalog.js';
import type { Logger } from '../../ports/logger.js';
import { indexApps, sessionOpener } from './catalog-apps.js';
import { authInputs, type CredentialRecheck, credentialChecks } from './catalog-credentials.js';
import { type DraftHooks, type DraftRun, draftHooks } from './catalog-drafts.js';
import { type StepHooks, type StepRun, stepHooks } from './catalog-steps.js';
import { endpointOverridesOf, withEndpointOverride } from './endpoint-overrides.js';
import { type App, createHttpTransport, type HttpLimits, type ResolveHost } from './sdk/index.js';

export interface AppCatalogOptions {
  readonly apps: readonly App[];
  /** Lets integrations reach loopback, private and link-local addresses (a self-hoster's LAN). */
  readonly allowPrivateNetworks: boolean;
  readonly logger: Logger;
  /** Defaults: 30 s per request, 10 MiB per answer. */
  readonly httpLimits?: Partial<HttpLimits>;
  /** `APP_BASE_URL_<KEY>` and `APP_AUTH_URL_<KEY>` variables: where apps reach their vendor instead. */
  readonly appAddresses?: Readonly<Record<string, string>>;
  /** The DNS behind `ctx.http`'s network guard; the system's unless a test fakes one. */
  readonly resolveHost?: ResolveHost;
}

export type { ConnectionUse, DraftRun, StepRun };

/**
 * The AppCatalog port over apps defined in this process, plus their hooks called directly: these
 * throw what the app throws. The StepRunner adapter turns them into outcomes for the engine; tests
 * call them to see the app's own errors.
 */
export interface InProcessAppCatalog extends AppCatalog, StepHooks, DraftHooks, CredentialRecheck {
  /** The app's icon (SVG markup), which the HTTP server serves at its `iconUrl`; null for no app. */
  icon(appKey: string): string | null;
  /** Closes the pooled HTTP connections. */
  close(): Promise<void>;
}

/** The catalog is assembled from its parts (catalog-*.ts), which share the apps and one HTTP transport. */
export const createAppCatalog = (options: AppCatalogOptions): InProcessAppCatalog => {
  const overrides = endpointOverridesOf(options.appAddresses ?? {}, options.apps, options.logger);
  const apps = indexApps(options.apps.map((app) => withEndpointOverride(app, overrides.get(app.key))));
  const transport = createHttpTransport(
    { allowPrivateNetworks: options.allowPrivateNetworks },
    options.httpLimits,
    options.resolveHost,
  );
  const parts = { apps, open: sessionOpener(transport, options.logger), logger: options.logger };
  return {
    list: () => apps.listed,
    find: (appKey) => apps.find(appKey)?.manifest ?? null,
    icon: (appKey) => apps.find(appKey)?.icon ?? null,
    ...authInputs(apps),
    ...credentialChecks(parts),
    ...stepHooks(parts),
    ...draftHooks(parts),
    close: () => transport.close(),
  };
};
