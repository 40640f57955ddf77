import { oauth2Auth } from '../sdk/index.js';

/** Automatisch's scopes: records and comments, base schemas, the user's e-mail, webhooks. */
export const AIRTABLE_SCOPES = [
  'data.records:read',
  'data.records:write',
  'data.recordComments:read',
  'data.recordComments:write',
  'schema.bases:read',
  'schema.bases:write',
  'user.email:read',
  'webhook:manage',
];

/**
 * Airtable's OAuth flow: PKCE (S256) is required, and an integration with a client secret
 * authenticates with HTTP Basic. Access tokens last an hour, refresh tokens rotate. The screen name
 * is the account's e-mail (`GET /v0/meta/whoami`).
 */
export const airtableAuth = oauth2Auth({
  authorizeUrl: 'https://airtable.com/oauth2/v1/authorize',
  tokenUrl: 'https://airtable.com/oauth2/v1/token',
  scopes: AIRTABLE_SCOPES,
  pkce: true,
  clientAuthentication: 'basic',
  async profile(ctx) {
    const { data } = await ctx.http.request<{ id: string; email?: string }>({ path: '/meta/whoami' });
    return { screenName: data.email ?? data.id };
  },
});
