import type { Credentials } from '../../core/domain/app.js';
import type { FieldErrors } from '../../core/domain/errors.js';
import type {
  AppCatalog,
  ChangeCredentials,
  ConnectionUse,
  CredentialCheck,
  OAuthCheck,
} from '../../ports/app-catalog.js';
import type { AppsByKey, CatalogParts, OpenSession } from './catalog-apps.js';
import { failureReason, secretsOf } from './failure-reason.js';
import type { App, AppContext, OAuth2AuthDefinition } from './sdk/index.js';
import { TOKEN_KEYS } from './sdk/oauth2.js';
import type { Session } from './sdk/session.js';
import { withoutKeys } from './sdk/token-endpoint.js';
import { validate } from './sdk/validation.js';

export interface CredentialRecheck {
  /** A re-check of stored credentials (the app's `isStillVerified`, or its verify/profile). */
  isStillVerified(appKey: string, connection: ConnectionUse): Promise<boolean>;
}

type AuthInputs = Pick<AppCatalog, 'parseAuthFields' | 'parseClientSettings' | 'authorizationUrl'>;
type CredentialChecks = Pick<AppCatalog, 'verifyCredentials'> & CredentialRecheck;

/** Auth hooks are typed per app; the catalog builds their context for any of them. */
type AuthHookContext = AppContext<Record<string, never>, any>;

const withoutUndefined = <T extends Record<string, unknown>>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

const unknownApp = (appKey: string): FieldErrors => ({ general: [`${appKey} is not a known app.`] });

/** The context of an auth hook: fields apps see their parsed fields, OAuth2 apps their parsed client. */
const authContext = (app: App, session: Session): AuthHookContext => {
  const ctx = session.context<Record<string, never>>({});
  if (app.auth.kind === 'fields') return { ...ctx, auth: { ...session.auth, data: app.auth.read(session.auth) } };
  if (app.auth.kind === 'oauth2' && session.auth.client) {
    const client = app.auth.readClient(session.auth.client);
    const { auth } = session;
    return {
      ...ctx,
      auth: {
        get data() {
          return auth.data;
        },
        client,
        set: auth.set,
      },
    };
  }
  return ctx;
};

/** Runs the app's own check: verify (fields) or profile (OAuth2). */
const check = async (app: App, session: Session) => {
  const ctx = authContext(app, session);
  if (app.auth.kind === 'fields') {
    // Fields that get a token work when the provider gives them one now, not when one is cached.
    if (app.auth.token) await session.renewToken();
    return app.auth.verify(ctx);
  }
  if (app.auth.kind === 'oauth2') return app.auth.profile(ctx);
  return { screenName: null };
};

/** What a user or an administrator typed for an app's authentication, checked against its schemas. */
export const authInputs = (apps: AppsByKey): AuthInputs => ({
  parseAuthFields(appKey, input) {
    const app = apps.find(appKey);
    if (!app) return { ok: false, fields: unknownApp(appKey) };
    if (app.auth.kind === 'none') return { ok: true, value: {} };
    const schema = app.auth.kind === 'fields' ? app.auth.schema : app.auth.fieldsSchema;
    const parsed = validate(schema, input);
    return parsed.ok ? { ok: true, value: withoutUndefined(parsed.value) } : parsed;
  },

  parseClientSettings(appKey, input) {
    const app = apps.find(appKey);
    if (!app) return { ok: false, fields: unknownApp(appKey) };
    if (app.auth.kind !== 'oauth2') {
      return { ok: false, fields: { general: [`${app.manifest.name} does not use OAuth.`] } };
    }
    const parsed = validate(app.auth.clientSchema, input);
    return parsed.ok ? { ok: true, value: withoutUndefined(parsed.value) } : parsed;
  },

  authorizationUrl(appKey, request) {
    const app = apps.find(appKey);
    if (app?.auth.kind !== 'oauth2') return null;
    return app.auth.authorizationUrl(request.client, request);
  },
});

/** Runs the app's check with a connection: its screen name, and the credentials it leaves. */
const checked = async (open: OpenSession, app: App, connection: ConnectionUse): Promise<CredentialCheck> => {
  const session = open(app, connection);
  const { screenName } = await check(app, session);
  return { ok: true, screenName, credentials: session.credentials() };
};

/** An OAuth2 connection: a `code` is exchanged for tokens first; without an access token nothing is checked. */
const checkOAuth2 = async (
  open: OpenSession,
  app: App,
  auth: OAuth2AuthDefinition<any>,
  credentials: Credentials,
  oauth: OAuthCheck,
  change: ChangeCredentials | undefined,
): Promise<CredentialCheck> => {
  const { code, state: _state, ...stored } = credentials;
  if (code === undefined) {
    if (typeof stored.accessToken !== 'string')
      return { ok: false, reason: 'The connection has not been authorized yet.' };
    return checked(open, app, { credentials: stored, oauth, ...(change && { change }) });
  }
  if (typeof code !== 'string' || code === '') return { ok: false, reason: 'The authorization code is empty.' };
  const bare = open(app, null).bareHttp;
  const tokens = await auth.exchangeCode(bare, oauth.client, code, oauth.redirectUri, oauth.codeVerifier ?? null);
  // Tokens of an earlier authorization must not outlive the new one; they are stored by the caller.
  return checked(open, app, { credentials: { ...withoutKeys(stored, TOKEN_KEYS), ...tokens }, oauth });
};

/** Asks the remote service whether credentials work, when a connection is made and later. */
export const credentialChecks = ({ apps, open, logger }: CatalogParts): CredentialChecks => ({
  async verifyCredentials(appKey, credentials, oauth, change) {
    const app = apps.find(appKey);
    if (!app) return { ok: false, reason: `${appKey} is not a known app.` };
    const { code: _code, state: _state, ...stored } = credentials;
    try {
      if (app.auth.kind === 'none') return { ok: true, screenName: null, credentials: stored };
      if (app.auth.kind === 'fields') {
        const parsed = validate(app.auth.schema, stored);
        if (!parsed.ok) return { ok: false, reason: `Missing or invalid: ${Object.keys(parsed.fields).join(', ')}.` };
        return await checked(open, app, { credentials: stored, oauth: null, ...(change && { change }) });
      }
      if (!oauth) return { ok: false, reason: 'No OAuth client is set for this connection.' };
      return await checkOAuth2(open, app, app.auth, credentials, oauth, change);
    } catch (error) {
      const reason = failureReason(error, secretsOf(app, credentials, oauth?.client ?? null));
      logger.warn({ app: appKey, reason }, 'credential check failed');
      return { ok: false, reason };
    }
  },

  async isStillVerified(appKey, connection) {
    const app = apps.get(appKey);
    const session = open(app, connection);
    try {
      if (app.auth.kind === 'none') return true;
      if (app.auth.kind === 'oauth2' && typeof connection.credentials.accessToken !== 'string') return false;
      const own = app.auth.isStillVerified as ((ctx: AuthHookContext) => Promise<boolean>) | undefined;
      if (own) return await own(authContext(app, session));
      await check(app, session);
      return true;
    } catch (error) {
      const reason = failureReason(error, secretsOf(app, connection.credentials, connection.oauth?.client ?? null));
      logger.info({ app: appKey, reason }, 'stored credentials no longer work');
      return false;
    }
  },
});
