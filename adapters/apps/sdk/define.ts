import type * as v from 'valibot';
import type {
  AppCapability,
  AppCategory,
  AppDescription,
  ArgumentDescription,
  DynamicOption,
  StepDescription,
  TriggerType,
} from '../../../core/domain/app.js';
import type { OwnerData } from '../../../ports/app-catalog.js';
import type { LanguageModel, ToolSpec } from '../../../ports/language-model.js';
import {
  type ArgumentMap,
  type ArgumentMapOf,
  describeArguments,
  type InferParameters,
  type ParametersCheck,
  parametersSchema,
} from './arguments.js';
import type { FieldsAuthDefinition, NoAuthDefinition } from './auth.js';
import type {
  AppContext,
  AuthAccess,
  ListenerContext,
  RegisterHookContext,
  TriggerContext,
  UnregisterHookContext,
} from './context.js';
import type { OAuth2AuthDefinition } from './oauth2.js';

export type AuthDefinition = NoAuthDefinition | FieldsAuthDefinition<any> | OAuth2AuthDefinition<any>;

interface StepOptions<M extends ArgumentMap, F extends string> {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly arguments: M;
  /** The app's `dynamicFields` entry that adds arguments from the ones given. */
  readonly dynamicFieldsKey?: F;
}

export interface ActionOptions<M extends ArgumentMap, F extends string = never> extends StepOptions<M, F> {
  /** A rule across arguments, checked wherever the arguments are (save, test, run). */
  readonly check?: ParametersCheck<InferParameters<M>>;
  run(ctx: AppContext<InferParameters<M>>): Promise<unknown>;
}

/** `F` is the step's `dynamicFieldsKey`, if any: `defineApp` refuses one the app does not define. */
export interface ActionDefinition<M extends ArgumentMap = any, F extends string = string> {
  readonly kind: 'action';
  readonly key: string;
  readonly arguments: M;
  readonly dynamicFieldsKey?: F;
  /** Validates raw parameters into what `run` receives. */
  readonly parameters: v.GenericSchema<unknown, InferParameters<M>>;
  readonly manifest: StepDescription;
  run(ctx: AppContext<InferParameters<M>>): Promise<unknown>;
}

/** One thing a trigger found or received; `id` lets polling skip items it has already seen. */
export interface TriggerItem {
  readonly id?: string;
  readonly data: unknown;
}

/** When a schedule trigger fires: a five-field cron expression in an IANA time zone. */
export interface TriggerSchedule {
  readonly cron: string;
  readonly timezone: string;
}

export interface TriggerOptions<M extends ArgumentMap, F extends string = never> extends StepOptions<M, F> {
  /**
   * How the trigger fires. None for a trigger whose runs the engine starts itself (a flow called
   * by another, a run that failed): it hands the trigger what happened as `ctx.webhook`.
   */
  readonly type?: TriggerType;
  run(ctx: TriggerContext<InferParameters<M>>): Promise<readonly TriggerItem[]>;
  /**
   * Schedule triggers: when to fire, from the step's parameters (null when they name no time).
   * Polling triggers may set it to poll at another pace than every five minutes.
   */
  schedule?(parameters: InferParameters<M>): TriggerSchedule | null;
  /**
   * Listener triggers (`type: 'listener'`, and only they): holds the flow's subscription open. It
   * connects, subscribes, calls `ctx.subscribed()`, hands each message to `ctx.emit` and
   * acknowledges it when that resolves; it returns once `ctx.signal` aborts and everything is
   * closed, and throws when the connection fails or breaks. It never reconnects by itself (turn
   * the client library's reconnection off): the engine opens it again, with backoff, and shows
   * the failure on the flow. `run` is then what testing the trigger in the editor answers: a sample
   * of what a message would look like, taken without consuming anything where the server allows.
   */
  listen?(ctx: ListenerContext<InferParameters<M>>): Promise<void>;
  /**
   * Instant triggers (`type: 'webhook'`, with `unregisterHook`): asks the vendor to deliver to
   * `ctx.webhookUrl` when the flow is published, and returns what to keep (JSON: the vendor's hook
   * id, the signing secret it gave), which deliveries see as `ctx.hook` and `unregisterHook` gets.
   * A throw fails the publish with its message (secrets masked): the flow stays unpublished.
   */
  registerHook?(ctx: RegisterHookContext<InferParameters<M>>): Promise<unknown>;
  /**
   * Removes the hook `registerHook` made (`ctx.hook`) when the flow is unpublished or deleted, or
   * publishes another trigger. Best effort: a throw is logged and does not block the unpublish.
   */
  unregisterHook?(ctx: UnregisterHookContext<InferParameters<M>>): Promise<void>;
}

export interface TriggerDefinition<M extends ArgumentMap = any, F extends string = string> {
  readonly kind: 'trigger';
  readonly key: string;
  readonly type?: TriggerType;
  readonly arguments: M;
  readonly dynamicFieldsKey?: F;
  readonly parameters: v.GenericSchema<unknown, InferParameters<M>>;
  readonly manifest: StepDescription;
  run(ctx: TriggerContext<InferParameters<M>>): Promise<readonly TriggerItem[]>;
  schedule?(parameters: InferParameters<M>): TriggerSchedule | null;
  listen?(ctx: ListenerContext<InferParameters<M>>): Promise<void>;
  registerHook?(ctx: RegisterHookContext<InferParameters<M>>): Promise<unknown>;
  unregisterHook?(ctx: UnregisterHookContext<InferParameters<M>>): Promise<void>;
}

const manifestOf = (options: StepOptions<ArgumentMap, string>, type?: TriggerType): StepDescription => ({
  key: options.key,
  name: options.name,
  description: options.description,
  arguments: describeArguments(options.arguments),
  ...(type && { type }),
  ...(options.dynamicFieldsKey && { dynamicFieldsKey: options.dynamicFieldsKey }),
});

export const defineAction = <const M extends ArgumentMap, const F extends string = never>(
  options: ActionOptions<M, F>,
): ActionDefinition<M, F> => ({
  kind: 'action',
  key: options.key,
  arguments: options.arguments,
  ...(options.dynamicFieldsKey !== undefined && { dynamicFieldsKey: options.dynamicFieldsKey }),
  // Dynamic fields are not known in advance, so their values are passed through unchecked.
  parameters: parametersSchema(options.arguments, options.dynamicFieldsKey !== undefined, options.check),
  manifest: manifestOf(options),
  run: options.run,
});

export const defineTrigger = <const M extends ArgumentMap, const F extends string = never>(
  options: TriggerOptions<M, F>,
): TriggerDefinition<M, F> => {
  if ((options.type === 'listener') !== (options.listen !== undefined))
    throw new Error(`Trigger ${options.key}: a listener trigger, and only one, defines listen().`);
  if ((options.registerHook === undefined) !== (options.unregisterHook === undefined))
    throw new Error(`Trigger ${options.key}: registerHook() and unregisterHook() go together.`);
  if (options.registerHook && options.type !== 'webhook')
    throw new Error(`Trigger ${options.key}: only a webhook trigger registers a hook.`);
  return {
    kind: 'trigger',
    key: options.key,
    ...(options.type && { type: options.type }),
    arguments: options.arguments,
    ...(options.dynamicFieldsKey !== undefined && { dynamicFieldsKey: options.dynamicFieldsKey }),
    parameters: parametersSchema(options.arguments, options.dynamicFieldsKey !== undefined),
    manifest: manifestOf(options, options.type),
    run: options.run,
    ...(options.schedule && { schedule: options.schedule }),
    ...(options.listen && { listen: options.listen }),
    ...(options.registerHook && { registerHook: options.registerHook }),
    ...(options.unregisterHook && { unregisterHook: options.unregisterHook }),
  };
};

export type { DynamicOption };

/** Dynamic data and fields see the step's parameters as entered so far, unvalidated. */
export type DraftContext = AppContext<Readonly<Record<string, unknown>>> & {
  /** What of the flow's owner the app may list (`ctx.owner.flows()`, `ctx.owner.forms()`, `ctx.owner.agents()`); empty outside a flow. */
  readonly owner: OwnerData;
};

export type DynamicDataHandler = (ctx: DraftContext) => Promise<readonly DynamicOption[]>;
export type DynamicFieldsHandler = (ctx: DraftContext) => Promise<readonly ArgumentDescription[]>;

/**
 * A model an agent or an AI step asks (the app has the `languageModel` capability): made for each
 * use from the connection's context, whose `http` and `signal` it should use.
 */
export type LanguageModelFactory = (ctx: AppContext) => LanguageModel;

/** Tools an agent may call with the connection (the app has the `toolbox` capability): an MCP server's. */
export interface Toolbox {
  list(ctx: AppContext): Promise<readonly ToolSpec[]>;
  /** What the tool answered, as JSON holds it; a throw is the call's failure. */
  call(ctx: AppContext, name: string, args: Readonly<Record<string, unknown>>): Promise<unknown>;
}

export interface AppHttpSettings {
  /**
   * Where `ctx.http` paths point: the vendor's API. The instance's `APP_BASE_URL_<KEY>` replaces it
   * (a proxy, a test's fake vendor).
   */
  readonly baseUrl?: string;
  /**
   * The server a connection names, for vendors with self-hosted editions (GitLab, Jira,
   * Mattermost...): when it answers an address, that one is used instead of `baseUrl` and its override.
   */
  readonly connectionBaseUrl?: (auth: AuthAccess) => string | undefined;
  /** Headers every request carries (e.g. an API version). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Origins of the vendor's other APIs that the app calls by absolute URL with the same
   * connection (Google's Drive and People APIs from the Sheets app): their requests carry the
   * connection's auth like the base URL's. When `APP_BASE_URL_<KEY>` replaces the base URL, they
   * move there too, their paths kept, so that one fake vendor or proxy answers them all.
   */
  readonly relatedApis?: readonly string[];
  /**
   * Set by the instance when `APP_BASE_URL_<KEY>` replaced `baseUrl` (apps leave it unset): the
   * vendor's base URL, whose absolute URLs move to the override like the related APIs'.
   */
  readonly replacedBaseUrl?: string;
}

/**
 * `DD` and `DF` are the keys of the app's `dynamicData` and `dynamicFields`, inferred from those
 * maps only: a step whose dynamic dropdown or `dynamicFieldsKey` names another key does not compile.
 */
export interface AppOptions<DD extends string = string, DF extends string = string> {
  /** Stable: flows, exports and templates refer to it. */
  readonly key: string;
  readonly name: string;
  readonly description: string;
  /** The app's icon, SVG markup (small, and self-contained: no scripts, links or fonts). */
  readonly icon: string;
  readonly primaryColor: string;
  /** Where the console's app picker shows it (`core/domain/app.ts`'s APP_CATEGORIES). */
  readonly categories?: readonly AppCategory[];
  /** Raise when arguments change meaning, so that steps saved with an older version can be found. */
  readonly version: number;
  readonly auth: AuthDefinition;
  /**
   * `optional`: the app's steps run without a connection too, and a step without one is complete
   * (the connection only adds something, as the wait app's e-mail). Required by default.
   */
  readonly connection?: 'required' | 'optional';
  readonly triggers: readonly TriggerDefinition<ArgumentMapOf<NoInfer<DD>>, NoInfer<DF>>[];
  readonly actions: readonly ActionDefinition<ArgumentMapOf<NoInfer<DD>>, NoInfer<DF>>[];
  readonly dynamicData?: Readonly<Record<DD, DynamicDataHandler>>;
  readonly dynamicFields?: Readonly<Record<DF, DynamicFieldsHandler>>;
  readonly http?: AppHttpSettings;
  readonly languageModel?: LanguageModelFactory;
  readonly toolbox?: Toolbox;
}

export interface App {
  readonly key: string;
  /** The serialisable description the core and the API see. */
  readonly manifest: AppDescription;
  /** SVG markup, which the HTTP server serves at `manifest.iconUrl`. */
  readonly icon: string;
  readonly auth: AuthDefinition;
  readonly triggers: readonly TriggerDefinition[];
  readonly actions: readonly ActionDefinition[];
  readonly dynamicData: Readonly<Record<string, DynamicDataHandler>>;
  readonly dynamicFields: Readonly<Record<string, DynamicFieldsHandler>>;
  readonly http: AppHttpSettings;
  readonly languageModel?: LanguageModelFactory;
  readonly toolbox?: Toolbox;
}

/**
 * Where the HTTP server serves an app's icon: Automatisch's address for it, relative to the
 * server (which serves the console too).
 */
export const appIconUrl = (appKey: string) => `/apps/${encodeURIComponent(appKey)}/assets/favicon.svg`;

const assertUniqueKeys = (app: string, what: string, keys: readonly string[]) => {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) throw new Error(`App ${app} defines the ${what} key "${key}" twice.`);
    seen.add(key);
  }
};

const capabilitiesOf = (options: Pick<AppOptions, 'languageModel' | 'toolbox'>) => {
  const capabilities: AppCapability[] = [];
  if (options.languageModel) capabilities.push('languageModel');
  if (options.toolbox) capabilities.push('toolbox');
  return capabilities.length > 0 ? { capabilities } : {};
};

export const defineApp = <DD extends string = never, DF extends string = never>(options: AppOptions<DD, DF>): App => {
  assertUniqueKeys(
    options.key,
    'trigger',
    options.triggers.map((t) => t.key),
  );
  assertUniqueKeys(
    options.key,
    'action',
    options.actions.map((a) => a.key),
  );
  return {
    key: options.key,
    manifest: {
      key: options.key,
      name: options.name,
      description: options.description,
      iconUrl: appIconUrl(options.key),
      primaryColor: options.primaryColor,
      categories: options.categories ?? [],
      version: options.version,
      auth:
        options.connection === 'optional' && options.auth.kind !== 'none'
          ? { ...options.auth.description, optional: true }
          : options.auth.description,
      triggers: options.triggers.map((t) => t.manifest),
      actions: options.actions.map((a) => a.manifest),
      ...capabilitiesOf(options),
    },
    icon: options.icon,
    auth: options.auth,
    triggers: options.triggers,
    actions: options.actions,
    dynamicData: options.dynamicData ?? {},
    dynamicFields: options.dynamicFields ?? {},
    http: options.http ?? {},
    ...(options.languageModel && { languageModel: options.languageModel }),
    ...(options.toolbox && { toolbox: options.toolbox }),
  };
};
