import type { Credentials } from '../../../core/domain/app.js';
import {
  cachedTokenGrant,
  type FieldsAuthDefinition,
  fieldsAuth,
  matches,
  requestTokens,
  type TokenGrant,
  text,
} from '../sdk/index.js';
import { API_VERSION, shopifyGraphql } from './graphql.js';

/**
 * The shop's address from what the user typed: `acme`, `acme.myshopify.com`, or a full URL (a
 * proxy; Shopify's own API lives at the myshopify.com domain, not at a shop's custom one).
 */
export const shopOrigin = (shopDomain: string): string => {
  const given = shopDomain.trim().replace(/\/+$/, '');
  if (/^https?:\/\//i.test(given)) return given;
  return `https://${given.includes('.') ? given : `${given}.myshopify.com`}`;
};

/** The shop's GraphQL Admin API, at the version this app speaks. */
export const shopApi = (shopDomain: string): string => `${shopOrigin(shopDomain)}/admin/api/${API_VERSION}`;

const fields = {
  shopDomain: text({
    label: 'Shop',
    required: true,
    placeholder: 'acme.myshopify.com',
    description: "The shop's myshopify.com domain, or its name before .myshopify.com.",
    check: matches(
      /^(https?:\/\/[^\s/]+\/?|[a-z0-9][a-z0-9-]*(\.myshopify\.com)?)$/i,
      'must be the shop’s myshopify.com domain, e.g. acme.myshopify.com.',
    ),
  }),
  adminApiToken: text({
    label: 'Admin API access token',
    secret: true,
    placeholder: 'shpat_...',
    description: 'For a custom app made in the shop’s admin. Leave empty for an app of the Dev Dashboard.',
  }),
  clientId: text({
    label: 'Client ID',
    description: 'For an app of the Dev Dashboard, installed in the shop: it gets its own access tokens.',
  }),
  clientSecret: text({
    label: 'Client secret (API secret key)',
    secret: true,
    description:
      'The app’s secret: it gets tokens for a Dev Dashboard app, and checks the signatures of instant triggers.',
  }),
};

type ShopFields = { shopDomain: string; adminApiToken?: string; clientId?: string; clientSecret?: string };

const base = fieldsAuth({
  fields,
  async verify(ctx) {
    const { adminApiToken, clientId, clientSecret } = ctx.auth.data;
    if (adminApiToken === undefined && (clientId === undefined || clientSecret === undefined)) {
      throw new Error(
        'Give the Admin API access token of a custom app made in the shop’s admin, or the client ID and secret of a Dev Dashboard app.',
      );
    }
    const data = await shopifyGraphql<{ shop: { name: string; myshopifyDomain: string } }>(
      ctx.http,
      'query { shop { name myshopifyDomain } }',
    );
    return { screenName: `${data.shop.name} (${data.shop.myshopifyDomain})` };
  },
});

const readFields = (stored: Credentials): ShopFields => base.read({ data: stored });

const tokenHeader = (token: string) => ({ 'x-shopify-access-token': token });

/**
 * A Dev Dashboard app installed in a shop of the same organization gets its tokens with the
 * client-credentials grant (they last a day); they are cached with the connection and asked for
 * again before they expire.
 */
const clientCredentials = cachedTokenGrant<ShopFields>({
  read: readFields,
  source: (shop) => [shopOrigin(shop.shopDomain), shop.clientId, shop.clientSecret],
  request: (http, shop) => {
    if (shop.clientId === undefined || shop.clientSecret === undefined) {
      throw new Error('The connection has neither an Admin API access token nor a client ID and secret.');
    }
    return requestTokens(
      http,
      `${shopOrigin(shop.shopDomain)}/admin/oauth/access_token`,
      { grant_type: 'client_credentials' },
      { id: shop.clientId, secret: shop.clientSecret, authentication: 'body' },
    );
  },
  headers: tokenHeader,
});

/** An admin-made app's token serves as it is; otherwise the client-credentials grant's. */
const staticToken = (stored: Credentials) =>
  typeof stored.adminApiToken === 'string' && stored.adminApiToken !== '' ? stored.adminApiToken : null;

const token: TokenGrant = {
  due: (stored, now) => staticToken(stored) === null && clientCredentials.due(stored, now),
  obtain: (http, stored, client) =>
    staticToken(stored) === null ? clientCredentials.obtain(http, stored, client) : Promise.resolve(null),
  headers: (stored) => {
    const given = staticToken(stored);
    return given === null ? clientCredentials.headers(stored) : tokenHeader(given);
  },
};

export const shopifyAuth: FieldsAuthDefinition<typeof fields> = { ...base, token };
