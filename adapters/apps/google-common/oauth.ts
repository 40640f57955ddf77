import { type HttpClient, oauth2Auth } from '../sdk/index.js';
import { GOOGLE_APIS } from './apis.js';

export const GOOGLE_AUTHORIZE_URL = 'https://accounts.google.com/o/oauth2/v2/auth';
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

/** Every Google app also asks who the user is, to name the connection. */
const IDENTITY_SCOPES = [
  'https://www.googleapis.com/auth/userinfo.email',
  'https://www.googleapis.com/auth/userinfo.profile',
];

interface Person {
  readonly resourceName?: string;
  readonly names?: readonly { readonly displayName?: string; readonly metadata?: { readonly primary?: boolean } }[];
  readonly emailAddresses?: readonly { readonly value?: string; readonly metadata?: { readonly primary?: boolean } }[];
}

const primary = <T extends { readonly metadata?: { readonly primary?: boolean } }>(entries: readonly T[] = []) =>
  entries.find((entry) => entry.metadata?.primary) ?? entries[0];

/** The signed-in user as the People API describes them (the `userinfo` scopes cover it). */
export const currentGoogleUser = async (
  http: HttpClient,
): Promise<{ name: string | null; email: string | null; resourceName: string | null }> => {
  const { data } = await http.request<Person>({
    url: `${GOOGLE_APIS.people}/v1/people/me`,
    query: { personFields: 'names,emailAddresses' },
  });
  return {
    name: primary(data.names)?.displayName ?? null,
    email: primary(data.emailAddresses)?.value ?? null,
    resourceName: data.resourceName ?? null,
  };
};

/**
 * Google's OAuth2 authorization-code flow with PKCE, one definition for every Google app: the app
 * gives the scopes of its API. `access_type=offline` is what makes Google grant a refresh token, and
 * `prompt=consent` makes it grant one again when a user connects a second time (Google only
 * hands a refresh token out on consent). The connection is named as Automatisch names it,
 * "Name - e-mail", from the People API.
 */
export const googleOAuth2 = (scopes: readonly string[]) =>
  oauth2Auth({
    authorizeUrl: GOOGLE_AUTHORIZE_URL,
    tokenUrl: GOOGLE_TOKEN_URL,
    scopes: [...scopes, ...IDENTITY_SCOPES],
    // Google takes PKCE (S256) from web server clients too: a stolen code is worth nothing alone.
    pkce: true,
    authorizeParams: { access_type: 'offline', prompt: 'consent' },
    async profile(ctx) {
      const user = await currentGoogleUser(ctx.http);
      if (!user.resourceName) throw new Error('Google answered people/me without the signed-in person.');
      const names = [user.name, user.email].filter((part): part is string => Boolean(part));
      return { screenName: names.length > 0 ? names.join(' - ') : user.resourceName };
    },
  });
