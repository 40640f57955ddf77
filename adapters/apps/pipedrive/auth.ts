import { oauth2Auth } from '../sdk/index.js';

interface Me {
  readonly data: { readonly id: number; readonly name: string; readonly company_domain?: string };
}

/**
 * Pipedrive's authorization-code flow. The scopes are the Pipedrive app's own (set in the
 * Developer Hub), so the consent URL names none. Requests go to `api.pipedrive.com`, which serves
 * every company; the token answer's `api_domain` (the company's own host) is not needed.
 */
export const pipedriveAuth = oauth2Auth({
  authorizeUrl: 'https://oauth.pipedrive.com/oauth/authorize',
  tokenUrl: 'https://oauth.pipedrive.com/oauth/token',
  scopes: [],
  // Pipedrive's token endpoint takes the client as HTTP Basic credentials.
  clientAuthentication: 'basic',
  async profile(ctx) {
    const { data } = await ctx.http.request<Me>({ path: '/v1/users/me' });
    return { screenName: [data.data.name, data.data.company_domain].filter(Boolean).join(' @ ') };
  },
});
