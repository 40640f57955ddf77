import { oauth2Auth, text } from '../sdk/index.js';

export const ZOOM_API = 'https://api.zoom.us/v2';

interface ZoomUser {
  readonly id?: string;
  readonly account_id?: string;
  readonly email?: string;
  readonly display_name?: string;
  readonly first_name?: string;
  readonly last_name?: string;
}

/**
 * Zoom's OAuth (a "General app" of the Zoom App Marketplace, user-managed): the scopes are those
 * the app's build flow lists, so the consent URL names none. The token endpoint takes the client
 * as HTTP Basic credentials, and PKCE. The connection keeps the Zoom user and account it belongs
 * to, so that webhooks of other users of the same Zoom app start nothing here.
 */
export const zoomAuth = oauth2Auth({
  authorizeUrl: 'https://zoom.us/oauth/authorize',
  tokenUrl: 'https://zoom.us/oauth/token',
  scopes: [],
  pkce: true,
  clientAuthentication: 'basic',
  clientFields: {
    webhookSecretToken: text({
      label: 'Webhook secret token',
      description:
        "The Secret Token of the Zoom app's event subscriptions (Features, Access), with which Zoom signs its webhooks. Needed by the webhook triggers only.",
      secret: true,
    }),
  },
  async profile(ctx) {
    const { data } = await ctx.http.request<ZoomUser>({ path: '/users/me' });
    if (!data.id) throw new Error('Zoom answered /users/me without the user.');
    await ctx.auth.set({ zoomUserId: data.id, ...(data.account_id && { zoomAccountId: data.account_id }) });
    const name = data.display_name || [data.first_name, data.last_name].filter(Boolean).join(' ');
    return { screenName: [name, data.email].filter(Boolean).join(' - ') || data.id };
  },
});
