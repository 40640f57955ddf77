/**
 * What the core and the API know of an integration: plain, serialisable descriptions. The code
 * that runs them lives behind the AppCatalog port.
 */
export type ArgumentType = 'string' | 'number' | 'boolean' | 'dropdown' | 'keyValueList' | 'code' | 'json';

export interface ArgumentOption {
  readonly label: string;
  readonly value: string | number | boolean;
}

export interface ArgumentDescription {
  readonly key: string;
  readonly label: string;
  readonly type: ArgumentType;
  readonly required: boolean;
  readonly description?: string;
  readonly placeholder?: string;
  readonly defaultValue?: unknown;
  /** Shown masked and never returned once stored (passwords, API keys). */
  readonly secret?: boolean;
  /** May contain `{{step.<id>.<path>}}` references to earlier steps' output. */
  readonly acceptsVariables?: boolean;
  readonly options?: readonly ArgumentOption[];
  /** A dropdown filled at run time by the app's dynamic data of this key. */
  readonly dynamicData?: { readonly key: string; readonly dependsOn: readonly string[] };
  /** For a dropdown: several options may be chosen, and the value is the list of them. */
  readonly multiple?: boolean;
  /** For `code`: the language shown in the editor. */
  readonly language?: string;
}

export type AuthKind = 'none' | 'fields' | 'oauth2';

export interface AuthDescription {
  readonly kind: AuthKind;
  /** What the user enters: credentials (kind `fields`) or, for OAuth2, extra settings. */
  readonly fields: readonly ArgumentDescription[];
  /** OAuth2 client settings an administrator or user provides (client id and secret). */
  readonly clientFields: readonly ArgumentDescription[];
  /**
   * The app's steps run without a connection too (a step whose connection only adds something, as
   * the wait app's e-mail): a step without one is still complete.
   */
  readonly optional?: boolean;
}

/**
 * How a trigger fires: a call on its webhook, a poll or a time on the queue's schedule, or a
 * long-lived subscription (`listener`: a queue, a topic, a notification channel, a mailbox) that one
 * process holds for each published flow.
 */
export type TriggerType = 'webhook' | 'polling' | 'schedule' | 'listener';

export interface StepDescription {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly arguments: readonly ArgumentDescription[];
  /** Triggers only. */
  readonly type?: TriggerType;
  /** Extra arguments computed by the app from the ones already given. */
  readonly dynamicFieldsKey?: string;
}

/** Where an app is shown in the console's app picker; an app may sit in several. */
export const APP_CATEGORIES = [
  'communication',
  'productivity',
  'developer-tools',
  'sales-and-crm',
  'marketing',
  'commerce',
  'support',
  'forms-and-surveys',
  'files-and-documents',
  'data-and-databases',
  'messaging-and-queues',
  'ai',
  'flow-control',
  'utilities',
] as const;
export type AppCategory = (typeof APP_CATEGORIES)[number];

/**
 * What an app offers besides its steps: `languageModel`, a model an agent or an AI step can ask;
 * `toolbox`, tools an agent can call (an MCP server's).
 */
export const APP_CAPABILITIES = ['languageModel', 'toolbox'] as const;
export type AppCapability = (typeof APP_CAPABILITIES)[number];

export interface AppDescription {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly iconUrl: string;
  readonly primaryColor: string;
  readonly categories: readonly AppCategory[];
  /** Version of the app's definitions; steps record it so that later changes can be detected. */
  readonly version: number;
  readonly auth: AuthDescription;
  readonly triggers: readonly StepDescription[];
  readonly actions: readonly StepDescription[];
  /** Present only when the app has any. */
  readonly capabilities?: readonly AppCapability[];
}

export type Credentials = Readonly<Record<string, unknown>>;

/** An option of a dynamic dropdown, as the app lists it. */
export interface DynamicOption {
  readonly name: string;
  readonly value: string | number;
}

/** Whether the app's steps take a connection at all. */
export const needsConnection = (app: AppDescription): boolean => app.auth.kind !== 'none';

/** Whether a step of the app is incomplete without a connection. */
export const requiresConnection = (app: AppDescription): boolean => needsConnection(app) && app.auth.optional !== true;
