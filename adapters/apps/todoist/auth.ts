import { oauth2Auth, text } from '../sdk/index.js';

/**
 * Todoist's OAuth app flow: the redirect address is the one set in Todoist's App Management
 * console, scopes are separated by commas, and tokens do not expire (no refresh token).
 */
export const todoistAuth = oauth2Auth({
  authorizeUrl: 'https://todoist.com/oauth/authorize',
  tokenUrl: 'https://todoist.com/oauth/access_token',
  scopes: ['data:read_write'],
  scopeSeparator: ',',
  // Automatisch's connection asks for a screen name; here it is optional, the account's by default.
  fields: {
    screenName: text({ label: 'Screen name', description: "Shown for the connection; the account's name when empty." }),
  },
  async profile(ctx) {
    const { data } = await ctx.http.request<{ full_name?: string; email?: string }>({ path: '/user' });
    const chosen = typeof ctx.auth.data.screenName === 'string' ? ctx.auth.data.screenName.trim() : '';
    return { screenName: chosen || data.full_name || data.email || null };
  },
});
