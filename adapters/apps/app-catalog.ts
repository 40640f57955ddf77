import type * as v from 'valibot';
import type { AppDescription, ArgumentDescription, Credentials } from '../../core/domain/app.js';
import type { FieldErrors } from '../../core/domain/errors.js';
import type {
  AppCatalog,
  ConnectionUse,
  CredentialCheck,
  DraftOutcome,
  DraftRequest,
} from '../../ports/app-catalog.js';
import type { Logger } from '../../ports/logger.js';
import { failureReason, secretsOf } from './failure-reason.js';
import {
  type App,
  type AppContext,
  createHttpTransport,
  type DynamicOption,
  type ExecutionInfo,
  type HttpLimits,
  InvalidParametersError,
  type ResolveHost,
  type Store,
  type TriggerItem,
  type WebhookRequest,
} from './sdk/index.js';
import { TOKEN_KEYS } from './sdk/oauth2.js';
import { openSession, type Session } from './sdk/session.js';
import { validate } from './sdk/validation.js';

export interface AppCatalogOptions {
  readonly apps: readonly App[];
  /** Lets integrations reach loopback, private and link-local addresses (a self-hoster's LAN). */
  readonly allowPrivateNetworks: boolean;
  readonly logger: Logger;
  /** Defaults: 30 s per request, 10 MiB per answer. */
  readonly httpLimits?: Partial<HttpLimits>;
  /** The DNS behind `ctx.http`'s network guard; the system's unless a test fakes one. */
  readonly resolveHost?: ResolveHost;
}

export type { ConnectionUse };

export interface StepRun {
  readonly appKey: string;
  /** The trigger or action key. */
  readonly key: string;
  /** Raw parameters (variables already substituted); validated against the step's arguments. */
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly connection: ConnectionUse | null;
  readonly execution: ExecutionInfo | null;
  readonly signal?: AbortSignal;
  readonly store?: Store;
}

export interface DraftRun extends DraftRequest {
  readonly signal?: AbortSignal;
}

/**
 * The AppCatalog port over apps defined in this process, plus their hooks called directly: these
 * throw what the app throws. The StepRunner adapter turns them into outcomes for the engine; tests
 * call them to see the app's own errors.
 */
export interface InProcessAppCatalog extends AppCatalog {
  /** Throws InvalidParametersError for parameters that do not fit, or what the app throws. */
  runAction(run: StepRun): Promise<unknown>;
  runTrigger(run: StepRun & { readonly webhook?: WebhookRequest | null }): Promise<readonly TriggerItem[]>;
  dynamicData(run: DraftRun): Promise<readonly DynamicOption[]>;
  dynamicFields(run: DraftRun): Promise<readonly ArgumentDescription[]>;
  /** A re-check of stored credentials (the app's `isStillVerified`, or its verify/profile). */
  isStillVerified(appKey: string, connection: ConnectionUse): Promise<boolean>;
  /** Closes the pooled HTTP connections. */
  close(): Promise<void>;
}

const withoutUndefined = <T extends Record<string, unknown>>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

const without = (value: Credentials, keys: readonly string[]): Credentials =>
  Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));

/** Auth hooks are typed per app; the catalog builds their context for any of them. */
type AuthHookContext = AppContext<Record<string, never>, any>;

/** Own keys only: a key such as `constructor` must not reach Object's methods (with the credentials). */
const ownEntry = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

const unknownApp = (appKey: string): FieldErrors => ({ general: [`${appKey} is not a known app.`] });

export const createAppCatalog = (options: AppCatalogOptions): InProcessAppCatalog => {
  const apps = new Map<string, App>();
  for (const app of options.apps) {
    if (apps.has(app.key)) throw new Error(`Two apps have the key "${app.key}".`);
    apps.set(app.key, app);
  }
  const listed: readonly AppDescription[] = [...apps.values()]
    .map((app) => app.manifest)
    .sort((a, b) => a.name.localeCompare(b.name) || a.key.localeCompare(b.key));
  const transport = createHttpTransport(
    { allowPrivateNetworks: options.allowPrivateNetworks },
    options.httpLimits,
    options.resolveHost,
  );
  const { logger } = options;

  const appOf = (appKey: string): App => {
    const app = apps.get(appKey);
    if (!app) throw new Error(`${appKey} is not a known app.`);
    return app;
  };

  const open = (
    app: App,
    connection: ConnectionUse | null,
    extra: { signal?: AbortSignal; execution?: ExecutionInfo | null; store?: Store; step?: string } = {},
  ): Session =>
    openSession({
      app,
      transport,
      logger,
      credentials: connection?.credentials ?? {},
      client: connection?.oauth?.client ?? null,
      ...(connection?.save && { saveCredentials: connection.save }),
      ...(extra.signal && { signal: extra.signal }),
      ...(extra.execution !== undefined && { execution: extra.execution }),
      ...(extra.store && { store: extra.store }),
      ...(extra.step && { logFields: { step: extra.step } }),
    });

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
    if (app.auth.kind === 'fields') return app.auth.verify(ctx);
    if (app.auth.kind === 'oauth2') return app.auth.profile(ctx);
    return { screenName: null };
  };

  /** A draft hook's answer, or why the app could not give one (secrets scrubbed from the reason). */
  const draft = async <T>(
    run: DraftRequest,
    handlers: (app: App) => Readonly<Record<string, (ctx: any) => Promise<T>>>,
  ): Promise<DraftOutcome<T>> => {
    const app = apps.get(run.appKey);
    const handler = app ? ownEntry(handlers(app), run.key) : undefined;
    if (!app || !handler) return { ok: false, unknownKey: true };
    try {
      return { ok: true, value: await handler(open(app, run.connection).context(run.parameters)) };
    } catch (error) {
      const reason = failureReason(
        error,
        secretsOf(app, run.connection?.credentials ?? {}, run.connection?.oauth?.client ?? null),
      );
      logger.info({ app: app.key, key: run.key, reason }, 'dynamic data or fields failed');
      return { ok: false, unknownKey: false, reason };
    }
  };

  const parse = <S extends { key: string; parameters: v.GenericSchema<unknown, unknown> }>(
    app: App,
    steps: readonly S[],
    key: string,
    raw: Readonly<Record<string, unknown>>,
  ) => {
    const step = steps.find((s) => s.key === key);
    if (!step) throw new Error(`${app.key} has no step "${key}".`);
    const parsed = validate(step.parameters, raw);
    if (!parsed.ok) throw new InvalidParametersError(parsed.fields);
    return { step, parameters: parsed.value as v.InferOutput<S['parameters']> };
  };

  return {
    list: () => listed,
    find: (appKey) => apps.get(appKey)?.manifest ?? null,

    parseAuthFields(appKey, input) {
      const app = apps.get(appKey);
      if (!app) return { ok: false, fields: unknownApp(appKey) };
      if (app.auth.kind === 'none') return { ok: true, value: {} };
      const schema = app.auth.kind === 'fields' ? app.auth.schema : app.auth.fieldsSchema;
      const parsed = validate(schema, input);
      return parsed.ok ? { ok: true, value: withoutUndefined(parsed.value) } : parsed;
    },

    parseClientSettings(appKey, input) {
      const app = apps.get(appKey);
      if (!app) return { ok: false, fields: unknownApp(appKey) };
      if (app.auth.kind !== 'oauth2') {
        return { ok: false, fields: { general: [`${app.manifest.name} does not use OAuth.`] } };
      }
      const parsed = validate(app.auth.clientSchema, input);
      return parsed.ok ? { ok: true, value: withoutUndefined(parsed.value) } : parsed;
    },

    async verifyCredentials(appKey, credentials, oauth): Promise<CredentialCheck> {
      const app = apps.get(appKey);
      if (!app) return { ok: false, reason: `${appKey} is not a known app.` };
      const { code, state: _state, ...stored } = credentials;
      try {
        if (app.auth.kind === 'none') return { ok: true, screenName: null, credentials: stored };
        if (app.auth.kind === 'fields') {
          const parsed = validate(app.auth.schema, stored);
          if (!parsed.ok) return { ok: false, reason: `Missing or invalid: ${Object.keys(parsed.fields).join(', ')}.` };
          const session = open(app, { credentials: stored, oauth: null });
          const { screenName } = await check(app, session);
          return { ok: true, screenName, credentials: session.credentials() };
        }
        if (!oauth) return { ok: false, reason: 'No OAuth client is set for this connection.' };
        let current = stored;
        if (code !== undefined) {
          if (typeof code !== 'string' || code === '') return { ok: false, reason: 'The authorization code is empty.' };
          const bare = open(app, null).bareHttp;
          const tokens = await app.auth.exchangeCode(bare, oauth.client, code, oauth.redirectUri);
          // Tokens of an earlier authorization must not outlive the new one.
          current = { ...without(stored, TOKEN_KEYS), ...tokens };
        }
        if (typeof current.accessToken !== 'string') {
          return { ok: false, reason: 'The connection has not been authorized yet.' };
        }
        const session = open(app, { credentials: current, oauth });
        const { screenName } = await check(app, session);
        return { ok: true, screenName, credentials: session.credentials() };
      } catch (error) {
        const reason = failureReason(error, secretsOf(app, credentials, oauth?.client ?? null));
        logger.warn({ app: appKey, reason }, 'credential check failed');
        return { ok: false, reason };
      }
    },

    authorizationUrl(appKey, request) {
      const app = apps.get(appKey);
      if (app?.auth.kind !== 'oauth2') return null;
      return app.auth.authorizationUrl(request.client, request);
    },

    checkStepParameters(appKey, kind, key, parameters) {
      const app = appOf(appKey);
      const step = (kind === 'trigger' ? app.triggers : app.actions).find((s) => s.key === key);
      if (!step) throw new Error(`${appKey} has no ${kind} "${key}".`);
      const parsed = validate(step.parameters, parameters);
      return parsed.ok ? null : parsed.fields;
    },

    loadDynamicData: (run) => draft(run, (app) => app.dynamicData),
    loadDynamicFields: (run) => draft(run, (app) => app.dynamicFields),

    async isStillVerified(appKey, connection) {
      const app = appOf(appKey);
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

    async runAction(run) {
      const app = appOf(run.appKey);
      const { step, parameters } = parse(app, app.actions, run.key, run.parameters);
      const session = open(app, run.connection, { ...run, step: step.key });
      return step.run(session.context(parameters));
    },

    async runTrigger(run) {
      const app = appOf(run.appKey);
      const { step, parameters } = parse(app, app.triggers, run.key, run.parameters);
      const session = open(app, run.connection, { ...run, step: step.key });
      return step.run({ ...session.context(parameters), webhook: run.webhook ?? null });
    },

    async dynamicData(run) {
      const app = appOf(run.appKey);
      const handler = ownEntry(app.dynamicData, run.key);
      if (!handler) throw new Error(`${app.key} has no dynamic data "${run.key}".`);
      return handler(open(app, run.connection, run).context(run.parameters));
    },

    async dynamicFields(run) {
      const app = appOf(run.appKey);
      const handler = ownEntry(app.dynamicFields, run.key);
      if (!handler) throw new Error(`${app.key} has no dynamic fields "${run.key}".`);
      return handler(open(app, run.connection, run).context(run.parameters));
    },

    close: () => transport.close(),
  };
};
