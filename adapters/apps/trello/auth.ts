import { fieldsAuth, text } from '../sdk/index.js';

/** Trello's token authorization page for an API key: the user approves, and Trello shows the token. */
const AUTHORIZE_PAGE =
  'https://trello.com/1/authorize?expiration=never&scope=read,write,account&response_type=token&key=<API key>';

/**
 * An API key (a Power-Up's) and a user token for it, sent in Trello's OAuth-style header so that
 * neither shows in URLs. Automatisch's keys: `apiKey`, and `token` as its callback stores it. The
 * Power-Up's secret is optional: Trello signs webhook deliveries with it.
 */
export const trelloAuth = fieldsAuth({
  fields: {
    apiKey: text({
      label: 'API key',
      required: true,
      secret: true,
      description: 'The API key of your Power-Up (trello.com/power-ups/admin, API key tab).',
    }),
    token: text({
      label: 'Token',
      required: true,
      secret: true,
      description: `The token Trello shows once you approve access at ${AUTHORIZE_PAGE}.`,
    }),
    apiSecret: text({
      label: 'Secret',
      secret: true,
      description: "The Power-Up's secret (API key tab): only instant triggers need it, to check Trello's signatures.",
    }),
  },
  headers: (data) => ({
    authorization: `OAuth oauth_consumer_key="${data.apiKey}", oauth_token="${data.token}"`,
  }),
  async verify(ctx) {
    const { data } = await ctx.http.request<{ username?: string; email?: string | null }>({
      path: '/members/me',
      query: { fields: 'username,fullName,email' },
    });
    const screenName = [data.username, data.email].filter(Boolean).join(' @ ');
    return { screenName: screenName || null };
  },
});
