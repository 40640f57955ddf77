import { httpUrl, oauth2Auth, text } from '../sdk/index.js';

export const GITLAB_COM = 'https://gitlab.com';

/** The GitLab server a client (and so a connection) names, without a trailing slash. */
export const instanceOf = (client: { readonly instanceUrl?: string | undefined }) =>
  (client.instanceUrl ?? GITLAB_COM).replace(/\/+$/, '');

/**
 * GitLab's OAuth2 application flow on gitlab.com or a self-managed server: the instance is a
 * setting of the OAuth client, since an OAuth application exists on one server only. A user who
 * enters the client for a connection names the instance there too.
 */
export const gitlabAuth = oauth2Auth({
  authorizeUrl: (client) => `${instanceOf(client)}/oauth/authorize`,
  tokenUrl: (client) => `${instanceOf(client)}/oauth/token`,
  scopes: ['api', 'read_user'],
  clientFields: {
    instanceUrl: text({
      label: 'GitLab instance URL',
      description: 'Your GitLab server; gitlab.com when empty.',
      placeholder: GITLAB_COM,
      check: httpUrl,
    }),
  },
  async profile(ctx) {
    const { data } = await ctx.http.request<{ username?: unknown }>({ path: '/user' });
    if (typeof data.username !== 'string') throw new Error('GitLab answered /user without a username.');
    const instance = ctx.auth.client.instanceUrl;
    return { screenName: instance ? `${data.username} @ ${new URL(instance).host}` : data.username };
  },
});
