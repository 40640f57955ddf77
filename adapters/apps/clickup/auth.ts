import { oauth2Auth } from '../sdk/index.js';

/**
 * ClickUp's OAuth flow: consent at app.clickup.com/api (ClickUp asks no scopes: the user picks the
 * workspaces), the code exchanged at the API's token endpoint. Tokens do not expire.
 */
export const clickupAuth = oauth2Auth({
  authorizeUrl: 'https://app.clickup.com/api',
  tokenUrl: 'https://api.clickup.com/api/v2/oauth/token',
  scopes: [],
  async profile(ctx) {
    const { data } = await ctx.http.request<{ user: { username?: string; email?: string } }>({ path: '/user' });
    return { screenName: [data.user.username, data.user.email].filter(Boolean).join(' @ ') || null };
  },
});
