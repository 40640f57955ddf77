import { runAppActionOutcome } from '../../../adapters/apps/app-harness.js';
import type { App } from '../../../adapters/apps/sdk/index.js';
import type { Credentials } from '../../../core/domain/app.js';
import type { OAuthClientSettings } from '../../../ports/app-catalog.js';
import type { FakeVendor } from '../../support/fake-vendor.js';

/**
 * What the engine's step runner makes of an action whose vendor answers its rate limit once: the
 * outcome a flow's run would record (a retryable failure, with the vendor's Retry-After).
 */
export const rateLimitedOutcome = async (
  app: App,
  vendor: FakeVendor,
  action: {
    readonly key: string;
    readonly parameters: Readonly<Record<string, unknown>>;
    readonly credentials: Credentials;
    /** OAuth2 apps: the connection's client settings (its server, for a self-hosted vendor). */
    readonly oauthClient?: OAuthClientSettings;
  },
): Promise<unknown> => {
  vendor.rateLimit(1);
  return runAppActionOutcome(app, action.key, {
    parameters: action.parameters,
    auth: action.credentials,
    baseUrl: vendor.url,
    execution: null,
    ...(action.oauthClient && { oauthClient: action.oauthClient }),
  });
};
