import { type AuthAccess, type HttpClient, OAuth2Error, oauth2Auth } from '../sdk/index.js';

const LOGIN = 'https://login.mailchimp.com';

/** What Mailchimp's metadata endpoint says of a token: the account's data centre and API address. */
interface Metadata {
  readonly dc?: unknown;
  readonly api_endpoint?: unknown;
  readonly accountname?: unknown;
  readonly login?: { readonly login_name?: unknown };
}

/** A data centre is a short name such as `us21`: anything else never becomes part of a host name. */
const DATA_CENTRE = /^[a-z]{2,8}\d{1,4}$/;

/**
 * Mailchimp serves each account from its data centre (`https://us21.api.mailchimp.com`), which only
 * its metadata endpoint, next to the token endpoint on login.mailchimp.com, tells. It is asked
 * right after the code exchange, with the same client (so APP_AUTH_URL_MAILCHIMP moves it too).
 */
const lookUpDataCentre = async (http: HttpClient, accessToken: string) => {
  const { data } = await http.request<Metadata>({
    url: `${LOGIN}/oauth2/metadata`,
    headers: { authorization: `OAuth ${accessToken}` },
  });
  if (typeof data.dc !== 'string' || !DATA_CENTRE.test(data.dc) || typeof data.api_endpoint !== 'string') {
    throw new OAuth2Error('Authorization failed: Mailchimp did not name the account’s data centre.');
  }
  return { serverPrefix: data.dc, apiEndpoint: data.api_endpoint };
};

const base = oauth2Auth({
  authorizeUrl: `${LOGIN}/oauth2/authorize`,
  tokenUrl: `${LOGIN}/oauth2/token`,
  // Mailchimp has no scopes: a token may do what its user may.
  scopes: [],
  async profile(ctx) {
    // The API root: it answers only a working token, and names the account.
    const { data } = await ctx.http.request<{ username?: unknown; account_name?: unknown }>({ path: '/' });
    const name = typeof data.username === 'string' && data.username !== '' ? data.username : data.account_name;
    if (typeof name !== 'string') throw new Error('Mailchimp answered its API root without an account name.');
    return { screenName: name };
  },
});

export const mailchimpAuth: typeof base = {
  ...base,
  async exchangeCode(http, ...rest) {
    // Mailchimp's tokens never expire (it says `expires_in: 0`), and there is no refresh token.
    const { expiresAt: _never, ...tokens } = await base.exchangeCode(http, ...rest);
    return { ...tokens, ...(await lookUpDataCentre(http, tokens.accessToken)) };
  },
};

/**
 * The API of the connection's data centre: the address the metadata gave, or one made from the
 * data centre alone (Automatisch's connections keep only `serverPrefix`).
 */
export const mailchimpApi = (auth: AuthAccess): string => {
  const { apiEndpoint, serverPrefix } = auth.data;
  if (typeof apiEndpoint === 'string' && apiEndpoint !== '') return `${apiEndpoint.replace(/\/+$/, '')}/3.0`;
  if (typeof serverPrefix === 'string' && DATA_CENTRE.test(serverPrefix)) {
    return `https://${serverPrefix}.api.mailchimp.com/3.0`;
  }
  throw new Error('The Mailchimp connection does not know its data centre: connect it again.');
};
