import { httpUrl, oauth2Auth, text } from '../sdk/index.js';

const PRODUCTION = 'https://login.salesforce.com/services/oauth2';

interface UserInfo {
  readonly name?: string;
  readonly preferred_username?: string;
}

/**
 * A connected app's authorization-code flow. `oauth2Url` (Automatisch's key) says which login
 * server: production, `https://test.salesforce.com/services/oauth2` for a sandbox, or a My Domain.
 * Each org has its own instance: the token answer's `instance_url`, kept as the connection's
 * `instanceUrl` (a refresh answers it again), is where every API call goes.
 */
export const salesforceAuth = oauth2Auth({
  authorizeUrl: (client) => `${client.oauth2Url}/authorize`,
  tokenUrl: (client) => `${client.oauth2Url}/token`,
  scopes: ['api', 'id', 'refresh_token'],
  clientFields: {
    oauth2Url: text({
      label: 'Salesforce environment',
      default: PRODUCTION,
      description: `${PRODUCTION} for production, https://test.salesforce.com/services/oauth2 for a sandbox.`,
      check: httpUrl,
    }),
  },
  keepFromTokenAnswer: (answer) =>
    typeof answer.instance_url === 'string' ? { instanceUrl: answer.instance_url } : {},
  async profile(ctx) {
    // The instance answers who the token is for (OpenID Connect's userinfo).
    const { data } = await ctx.http.request<UserInfo>({ path: '/services/oauth2/userinfo' });
    return {
      screenName: `${data.name ?? data.preferred_username ?? 'Salesforce user'} - ${String(ctx.auth.data.instanceUrl)}`,
    };
  },
});
