import { httpUrl, oauth2Auth, text } from '../sdk/index.js';

/** The account's Zendesk address, without a trailing slash. */
export const instanceOf = (client: { readonly instanceUrl: string }) => client.instanceUrl.replace(/\/+$/, '');

/**
 * Zendesk's OAuth flow on the account's own subdomain: an OAuth client is made in one account's
 * Admin Center, so its settings name that account (`instanceUrl`), as Automatisch's connection does.
 */
export const zendeskAuth = oauth2Auth({
  authorizeUrl: (client) => `${instanceOf(client)}/oauth/authorizations/new`,
  tokenUrl: (client) => `${instanceOf(client)}/oauth/tokens`,
  scopes: ['read', 'write'],
  clientFields: {
    instanceUrl: text({
      label: 'Zendesk subdomain URL',
      required: true,
      placeholder: 'https://your-subdomain.zendesk.com',
      check: httpUrl,
    }),
  },
  async profile(ctx) {
    const { data } = await ctx.http.request<{ user?: { name?: string } }>({ path: '/users/me' });
    const name = data.user?.name;
    if (!name) throw new Error('Zendesk answered /users/me without the user.');
    // `acme` for https://acme.zendesk.com, as Automatisch names it; the host for any other address.
    const { host } = new URL(ctx.auth.client.instanceUrl);
    return { screenName: `${name} @ ${host.endsWith('.zendesk.com') ? host.split('.')[0] : host}` };
  },
});
