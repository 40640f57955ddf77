import type { UseCases } from '../../core/application/use-cases.js';
import type { Actor } from '../../core/domain/actor.js';
import type { HealthProbe } from '../../ports/health.js';
import type { Logger } from '../../ports/logger.js';
import type { Metrics } from '../../ports/metrics.js';

export interface HttpSettings {
  readonly bodyLimitBytes: number;
  /** Proxies in front of the server whose X-Forwarded-For entries are believed (0: none). */
  readonly trustedProxies: number;
  /** Where this server is reached from outside (webhook and SAML addresses), without a trailing slash. */
  readonly publicUrl: string;
  /** The web app's address, where SAML sign-ins send the browser back to. */
  readonly webAppUrl: string;
  /** Origins whose pages may call the API with credentials (CORS). */
  readonly corsOrigins: readonly string[];
  /** When set, `GET /metrics` requires it as a bearer token; null: the metrics are public. */
  readonly metricsToken: string | null;
}

export interface HttpDeps {
  readonly useCases: UseCases;
  readonly health: HealthProbe;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly settings: HttpSettings;
  /** An app's icon, SVG markup; null for a key no app has. */
  readonly appIcon: (appKey: string) => string | null;
  /**
   * Answers GET navigations no route of this app matches (the web console, given by composition);
   * null lets the JSON 404 answer. Never asked about API, webhook, GraphQL or other reserved paths.
   */
  readonly fallback?: (request: Request) => Promise<Response | null>;
}

export interface AppEnv {
  Variables: {
    requestId: string;
    /** Set by `requireActor`; only routes behind it read it. */
    actor: Actor;
    /** Set by `requireAccess`: the caller may send this request, so its input may be read. */
    accessChecked: boolean;
    /** Set by the body limit middleware for `bodyText`. */
    bodyLimitBytes: number;
  };
}
