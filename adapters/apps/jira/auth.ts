import { basicHeader, fieldsAuth, httpUrl, text } from '../sdk/index.js';

/**
 * Jira Cloud with an Atlassian API token: the site is the connection's, and requests use basic
 * authentication with the account's e-mail address and the token.
 */
export const jiraAuth = fieldsAuth({
  fields: {
    instanceUrl: text({
      label: 'Site URL',
      required: true,
      placeholder: 'https://your-team.atlassian.net',
      check: httpUrl,
    }),
    email: text({
      label: 'E-mail address',
      required: true,
      description: 'The Atlassian account the token belongs to.',
    }),
    apiToken: text({
      label: 'API token',
      required: true,
      secret: true,
      description: 'Created at id.atlassian.com, Security, API tokens.',
    }),
  },
  headers: (data) => ({ ...basicHeader(data.email, data.apiToken), accept: 'application/json' }),
  async verify(ctx) {
    const { data } = await ctx.http.request<{ displayName?: string; accountId?: string }>({ path: '/myself' });
    const who = data.displayName ?? data.accountId;
    if (!who) throw new Error('Jira answered /myself without the account.');
    return { screenName: `${who} @ ${new URL(ctx.auth.data.instanceUrl).host}` };
  },
});

/** The site's REST API v3. */
export const apiOf = (instanceUrl: string) => `${instanceUrl.replace(/\/+$/, '')}/rest/api/3`;
