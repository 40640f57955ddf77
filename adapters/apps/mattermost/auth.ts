import { type AuthAccess, bearerHeader, fieldsAuth, httpUrl, text } from '../sdk/index.js';

/**
 * A server's address and an access token: a bot account's (Integrations, Bot Accounts) or a
 * personal access token. Each connection names its own server, so there is no vendor address.
 */
export const mattermostAuth = fieldsAuth({
  fields: {
    instanceUrl: text({
      label: 'Mattermost instance URL',
      required: true,
      placeholder: 'https://chat.example.com',
      description: 'The address of your Mattermost server.',
      check: httpUrl,
    }),
    accessToken: text({
      label: 'Access token',
      required: true,
      secret: true,
      description: 'A bot account’s token (Integrations, Bot Accounts) or a personal access token (Profile, Security).',
    }),
  },
  headers: (data) => ({
    ...bearerHeader(data.accessToken),
    // Mattermost refuses some token-authenticated calls without it ("Invalid or expired session").
    'x-requested-with': 'XMLHttpRequest',
  }),
  async verify(ctx) {
    const { data } = await ctx.http.request<{ username: string }>({ path: '/users/me' });
    return { screenName: `${data.username} @ ${new URL(ctx.auth.data.instanceUrl).host}` };
  },
});

/** Where the connection's server answers its REST API. */
export const apiBaseOf = (auth: AuthAccess) => `${mattermostAuth.read(auth).instanceUrl.replace(/\/+$/, '')}/api/v4`;
