import { httpUrl, oauth2Auth, text } from '../sdk/index.js';

export const GITHUB_API = 'https://api.github.com';

/**
 * GitHub's OAuth app flow. The endpoints are client settings so that GitHub Enterprise Server
 * (and tests) can point the app elsewhere.
 */
export const githubAuth = oauth2Auth({
  authorizeUrl: (client) => client.authorizeUrl ?? 'https://github.com/login/oauth/authorize',
  tokenUrl: (client) => client.tokenUrl ?? 'https://github.com/login/oauth/access_token',
  scopes: ['read:user', 'repo'],
  clientFields: {
    apiBaseUrl: text({ label: 'API base URL', placeholder: GITHUB_API, check: httpUrl }),
    authorizeUrl: text({
      label: 'Authorization URL',
      placeholder: 'https://github.com/login/oauth/authorize',
      check: httpUrl,
    }),
    tokenUrl: text({ label: 'Token URL', placeholder: 'https://github.com/login/oauth/access_token', check: httpUrl }),
  },
  async profile(ctx) {
    const { data } = await ctx.http.request<{ login?: unknown }>({ path: '/user' });
    if (typeof data.login !== 'string') throw new Error('GitHub answered /user without a login.');
    return { screenName: data.login };
  },
});
