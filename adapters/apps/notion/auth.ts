import { oauth2Auth } from '../sdk/index.js';

type BotUser = {
  name?: string;
  bot?: { owner?: { type?: string; user?: { name?: string } }; workspace_name?: string };
};

/**
 * A public Notion integration's OAuth flow (`owner=user`): Notion asks no scopes, the user picks
 * the pages to share. Its token endpoint wants the client as HTTP Basic credentials and a JSON
 * body, for codes and refresh tokens alike. The screen name is the user and the workspace, as in
 * Automatisch.
 */
export const notionAuth = oauth2Auth({
  authorizeUrl: 'https://api.notion.com/v1/oauth/authorize',
  tokenUrl: 'https://api.notion.com/v1/oauth/token',
  scopes: [],
  authorizeParams: { owner: 'user' },
  clientAuthentication: 'basic',
  tokenRequestFormat: 'json',
  async profile(ctx) {
    const { data } = await ctx.http.request<BotUser>({ path: '/users/me' });
    const who = data.bot?.owner?.user?.name ?? data.name;
    const where = data.bot?.workspace_name;
    return { screenName: [who, where].filter(Boolean).join(' @ ') || null };
  },
});
