import { bearerHeader, dropdown, fieldsAuth, type HttpClient, text } from '../sdk/index.js';

export const SENDGRID_API = 'https://api.sendgrid.com/v3';
const SENDGRID_EU_API = 'https://api.eu.sendgrid.com/v3';

/** A key reads `SG.<key id>.<secret>`: the id, which SendGrid's console shows too, names the key. */
const keyIdOf = (apiKey: string) => /^SG\.([^.]+)\./.exec(apiKey)?.[1] ?? null;

/** The account's user name when the key may read it; restricted keys (a mail-send key) may not. */
const userName = async (http: HttpClient, scopes: readonly string[]) => {
  if (!scopes.includes('user.username.read')) return null;
  const { data } = await http.request<{ username?: unknown }>({ path: '/user/username' });
  return typeof data.username === 'string' ? data.username : null;
};

export const sendgridAuth = fieldsAuth({
  fields: {
    apiKey: text({ label: 'API key', required: true, secret: true, description: 'Settings → API Keys.' }),
    region: dropdown({
      label: 'Region',
      default: 'global',
      description: 'EU: a subuser whose data SendGrid keeps in the EU (api.eu.sendgrid.com).',
      options: [
        { label: 'Global', value: 'global' },
        { label: 'EU', value: 'eu' },
      ],
    }),
  },
  headers: (data) => bearerHeader(data.apiKey),
  async verify(ctx) {
    // Every key may list its own scopes: the cheapest check that it works.
    const { data } = await ctx.http.request<{ scopes?: unknown }>({ path: '/scopes' });
    const scopes = Array.isArray(data.scopes) ? data.scopes.filter((s): s is string => typeof s === 'string') : [];
    const keyId = keyIdOf(ctx.auth.data.apiKey);
    return { screenName: (await userName(ctx.http, scopes)) ?? (keyId ? `API key ${keyId}` : 'SendGrid API key') };
  },
});

/** An EU subuser's API; the global one (or APP_BASE_URL_SENDGRID) otherwise. */
export const sendgridRegionApi = (region: string | undefined) => (region === 'eu' ? SENDGRID_EU_API : undefined);
