import { bearerHeader, dropdown, fieldsAuth, text } from '../sdk/index.js';

/** Intercom keeps each workspace in one region, with its own API host. */
export const REGION_HOSTS = {
  us: 'https://api.intercom.io',
  eu: 'https://api.eu.intercom.io',
  au: 'https://api.au.intercom.io',
} as const;

export const intercomAuth = fieldsAuth({
  fields: {
    accessToken: text({
      label: 'Access token',
      required: true,
      secret: true,
      description: "Your Developer Hub app's access token (Configure, Authentication).",
    }),
    region: dropdown({
      label: 'Data region',
      required: true,
      default: 'us',
      options: [
        { label: 'United States', value: 'us' },
        { label: 'Europe', value: 'eu' },
        { label: 'Australia', value: 'au' },
      ],
    }),
  },
  headers: (data) => bearerHeader(data.accessToken),
  async verify(ctx) {
    const { data } = await ctx.http.request<{ name?: string; email?: string; app?: { name?: string } }>({
      path: '/me',
    });
    const who = data.name ?? data.email;
    if (!who) throw new Error('Intercom answered /me without the admin.');
    return { screenName: data.app?.name ? `${who} @ ${data.app.name}` : who };
  },
});
