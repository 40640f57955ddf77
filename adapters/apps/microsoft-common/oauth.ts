import { type HttpClient, matches, oauth2Auth, text } from '../sdk/index.js';

const LOGIN = 'https://login.microsoftonline.com';

/** Every Microsoft app also asks to stay connected (a refresh token) and who the user is. */
const IDENTITY_SCOPES = ['offline_access', 'User.Read'];

const tenant = text({
  label: 'Tenant',
  description:
    '`common` (work, school and personal accounts), `organizations`, `consumers`, or your directory (tenant) ID or domain.',
  default: 'common',
  check: matches(/^[A-Za-z0-9][A-Za-z0-9.-]*$/, 'must be common, organizations, consumers, a tenant ID or a domain.'),
});

/** The identity platform's v2.0 endpoint of a tenant. */
const endpoint = (which: 'authorize' | 'token') => (client: { readonly tenant: string }) =>
  `${LOGIN}/${client.tenant}/oauth2/v2.0/${which}`;

interface Me {
  readonly id?: string;
  readonly displayName?: string | null;
  readonly mail?: string | null;
  readonly userPrincipalName?: string | null;
}

/** The signed-in user, as Graph's `/me` names them. */
export const currentMicrosoftUser = async (http: HttpClient): Promise<Me> =>
  (await http.request<Me>({ path: '/me', query: { $select: 'id,displayName,mail,userPrincipalName' } })).data;

/**
 * The Microsoft identity platform's authorization-code flow with PKCE, one definition for every Microsoft
 * 365 app (the app gives the Graph scopes of its API). The tenant is a client setting: an app
 * registration for one organisation names its tenant, a multi-tenant one keeps `common`. The
 * connection is named "Name - e-mail" from Graph's `/me`.
 */
export const microsoftOAuth2 = (scopes: readonly string[]) =>
  oauth2Auth({
    authorizeUrl: endpoint('authorize'),
    tokenUrl: endpoint('token'),
    scopes: [...scopes, ...IDENTITY_SCOPES],
    // The identity platform takes PKCE (S256) from web apps too: a stolen code is worth nothing alone.
    pkce: true,
    clientFields: { tenant },
    async profile(ctx) {
      const me = await currentMicrosoftUser(ctx.http);
      if (!me.id) throw new Error('Microsoft Graph answered /me without the signed-in user.');
      const names = [me.displayName, me.mail ?? me.userPrincipalName].filter((part): part is string => Boolean(part));
      return { screenName: names.length > 0 ? names.join(' - ') : me.id };
    },
  });
