import { oauth2Auth } from '../sdk/index.js';

/**
 * Asana's OAuth flow. No scope is asked, as Automatisch does: an app registered with full
 * permissions gets them (Asana's default scope). Access tokens last an hour; the refresh token
 * renews them.
 */
export const asanaAuth = oauth2Auth({
  authorizeUrl: 'https://app.asana.com/-/oauth_authorize',
  tokenUrl: 'https://app.asana.com/-/oauth_token',
  scopes: [],
  async profile(ctx) {
    const { data } = await ctx.http.request<{ data: { name?: string; email?: string } }>({
      path: '/users/me',
      query: { opt_fields: 'name,email' },
    });
    const { name, email } = data.data;
    return { screenName: [name, email].filter(Boolean).join(' - ') || null };
  },
});
