import {
  defineAction,
  defineApp,
  googleServiceAccountAuth,
  httpUrl,
  oauth2Auth,
  oauth2ClientCredentialsAuth,
  parseServiceAccountKey,
  text,
} from '../../adapters/apps/sdk/index.js';
import type { FakeOAuth } from './fake-oauth.js';
import { TEST_ICON } from './test-icon.js';

/** Asks the API who the token belongs to: the fake's `/me`. */
const whoAmI = defineAction({
  key: 'whoAmI',
  name: 'Who am I',
  description: 'Reads the account the connection acts as.',
  arguments: {},
  run: async (ctx) => (await ctx.http.request<{ sub: string; via: string }>({ path: '/me' })).data,
});

const endpoint = (label: string) => text({ label, required: true, check: httpUrl });

/** An authorization-code app with PKCE whose endpoints are client settings (the fake's, in tests). */
export const pkceAuth = oauth2Auth({
  authorizeUrl: (client) => client.authorizeUrl,
  tokenUrl: (client) => client.tokenUrl,
  scopes: ['profile', 'write'],
  pkce: true,
  clientFields: {
    authorizeUrl: endpoint('Authorization URL'),
    tokenUrl: endpoint('Token URL'),
    apiBaseUrl: endpoint('API base URL'),
  },
  async profile(ctx) {
    const { data } = await ctx.http.request<{ sub: string }>({ path: '/me' });
    return { screenName: data.sub };
  },
});

export const pkceApp = defineApp({
  key: 'test-oauth-pkce',
  name: 'Test OAuth',
  description: 'An OAuth2 app with PKCE, for the tests.',
  icon: TEST_ICON,
  primaryColor: '#0b7285',
  version: 1,
  auth: pkceAuth,
  triggers: [],
  actions: [whoAmI],
  http: { connectionBaseUrl: (auth) => (auth.client ? pkceAuth.readClient(auth.client).apiBaseUrl : undefined) },
});

/** The client settings that point `pkceApp` at a fake server. */
export const pkceClient = (fake: FakeOAuth) => ({
  ...fake.client,
  authorizeUrl: fake.authorizeUrl,
  tokenUrl: fake.tokenUrl,
  apiBaseUrl: fake.apiUrl,
});

export const clientCredentialsAuth = oauth2ClientCredentialsAuth({
  tokenUrl: (fields) => fields.tokenUrl,
  scopes: ['reports'],
  fields: { tokenUrl: endpoint('Token URL'), apiBaseUrl: endpoint('API base URL') },
});

export const clientCredentialsApp = defineApp({
  key: 'test-client-credentials',
  name: 'Test client credentials',
  description: 'A machine-to-machine API, for the tests.',
  icon: TEST_ICON,
  primaryColor: '#5f3dc4',
  version: 1,
  auth: clientCredentialsAuth,
  triggers: [],
  actions: [whoAmI],
  http: { connectionBaseUrl: (auth) => clientCredentialsAuth.read(auth).apiBaseUrl },
});

/** The connection's fields for `clientCredentialsApp` on a fake server. */
export const clientCredentialsFields = (fake: FakeOAuth) => ({
  ...fake.client,
  tokenUrl: fake.tokenUrl,
  apiBaseUrl: fake.apiUrl,
});

export const serviceAccountAuth = googleServiceAccountAuth({
  scopes: ['https://www.googleapis.com/auth/drive.readonly'],
});

export const serviceAccountApp = defineApp({
  key: 'test-service-account',
  name: 'Test service account',
  description: 'A Google-shaped API reached with a service account, for the tests.',
  icon: TEST_ICON,
  primaryColor: '#1a73e8',
  version: 1,
  auth: serviceAccountAuth,
  triggers: [],
  actions: [whoAmI],
  http: {
    // The fake serves its API beside the key's token_uri.
    connectionBaseUrl: (auth) => {
      const key = parseServiceAccountKey(serviceAccountAuth.read(auth).serviceAccountKey);
      return typeof key === 'string' ? undefined : `${new URL(key.tokenUri).origin}/api`;
    },
  },
});

export const tokenApps = [pkceApp, clientCredentialsApp, serviceAccountApp];
