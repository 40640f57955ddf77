import { oauth2Auth } from '../sdk/index.js';

export const TYPEFORM_API = 'https://api.typeform.com';

/**
 * Typeform's OAuth2 flow, with Automatisch's scopes: `offline` asks for a refresh token (access
 * tokens last a week), the others cover forms, responses, webhooks and workspaces.
 */
export const typeformAuth = oauth2Auth({
  authorizeUrl: `${TYPEFORM_API}/oauth/authorize`,
  tokenUrl: `${TYPEFORM_API}/oauth/token`,
  scopes: [
    'forms:read',
    'forms:write',
    'webhooks:read',
    'webhooks:write',
    'responses:read',
    'accounts:read',
    'workspaces:read',
    'offline',
  ],
  async profile(ctx) {
    const { data } = await ctx.http.request<{ alias?: unknown; email?: unknown }>({ path: '/me' });
    const name = typeof data.alias === 'string' && data.alias !== '' ? data.alias : data.email;
    if (typeof name !== 'string') throw new Error('Typeform answered /me without an alias or e-mail.');
    return { screenName: name };
  },
});
