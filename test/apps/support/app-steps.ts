import { TEST_REDIRECT_URI } from '../../../adapters/apps/app-harness.js';
import type { App } from '../../../adapters/apps/sdk/index.js';

/** Each trigger's and action's key with its argument keys, in order: what flows refer to. */
export const stepArguments = (app: App): Record<string, string[]> =>
  Object.fromEntries(
    [...app.manifest.triggers, ...app.manifest.actions].map((step) => [
      step.key,
      step.arguments.map((argument) => argument.key),
    ]),
  );

/** The consent page an OAuth2 app sends a user to, for the harness's redirect address (and a PKCE verifier). */
export const consentUrl = (
  app: App,
  client: { clientId: string; clientSecret: string },
  state = 's-1',
  codeVerifier?: string,
): URL => {
  if (app.auth.kind !== 'oauth2') throw new Error(`${app.key} does not connect with OAuth2.`);
  return new URL(
    app.auth.authorizationUrl(client, { redirectUri: TEST_REDIRECT_URI, state, ...(codeVerifier && { codeVerifier }) }),
  );
};
