import { TEST_REDIRECT_URI } from '../../../adapters/apps/app-harness.js';
import type { App } from '../../../adapters/apps/index.js';

/** Where an OAuth2 app sends the user to consent (`state` s1, the harness's redirect): the page and its query. */
export const consentPage = (app: App, client: { clientId: string; clientSecret: string }) => {
  if (app.auth.kind !== 'oauth2') throw new Error(`${app.key} does not use OAuth2.`);
  const url = new URL(app.auth.authorizationUrl(client, { redirectUri: TEST_REDIRECT_URI, state: 's1' }));
  return { page: `${url.origin}${url.pathname}`, query: Object.fromEntries(url.searchParams) };
};
