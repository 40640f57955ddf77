import type { ArgumentDescription, Credentials } from '../../core/domain/app.js';
import type { CredentialCheck, OAuthClientSettings } from '../../ports/app-catalog.js';
import type { ChatAnswer, ChatRequest, ToolSpec } from '../../ports/language-model.js';
import type { Logger } from '../../ports/logger.js';
import type { ActionOutcome, ChatOutcome, IncomingRequest } from '../../ports/step-runner.js';
import { createAppCatalog, type InProcessAppCatalog } from './app-catalog.js';
import { AUTH_URL_PREFIX, BASE_URL_PREFIX, overrideVariable } from './endpoint-overrides.js';
import {
  type App,
  createMemoryStore,
  type DynamicOption,
  type ExecutionInfo,
  type ListenerMessage,
  type Store,
  type TriggerItem,
} from './sdk/index.js';
import { createStepRunner } from './step-runner.js';

/** How one step of an app is run outside any flow: what a test of a custom app gives. */
export interface StepCall {
  /** Raw parameters, as a step would hold them once its variables are substituted. */
  readonly parameters?: Readonly<Record<string, unknown>>;
  /** The connection's fields (what a user entered for the app's auth, plus what hooks saved); none for no connection. */
  readonly auth?: Credentials;
  /** The execution the step runs in; a test run of a made-up flow unless given. */
  readonly execution?: ExecutionInfo | null;
  /** The flow's datastore; a fresh in-memory one unless given, so a test can pass one and read it after. */
  readonly store?: Store;
  /** Default true: a test's fake service on 127.0.0.1 is reachable. */
  readonly allowPrivateNetworks?: boolean;
  readonly logger?: Logger;
  readonly signal?: AbortSignal;
  /** Where the app's API is instead of the vendor's (as `APP_BASE_URL_<KEY>` sets it): a test's fake vendor. */
  readonly baseUrl?: string;
  /** Where the app's OAuth endpoints are instead (as `APP_AUTH_URL_<KEY>`): a test's fake authorization server. */
  readonly authUrl?: string;
  /** OAuth2 apps: the OAuth client the connection authorizes with (an administrator's, in an instance). */
  readonly oauthClient?: Readonly<Record<string, unknown>>;
}

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

const testExecution = (app: App, key: string): ExecutionInfo => ({
  id: 'test-execution',
  flowId: 'test-flow',
  stepId: `${app.key}.${key}`,
  testRun: true,
  idempotencyKey: `test-execution:${app.key}.${key}`,
});

const harnessCatalog = (app: App, call: StepCall): InProcessAppCatalog =>
  createAppCatalog({
    apps: [app],
    allowPrivateNetworks: call.allowPrivateNetworks ?? true,
    logger: call.logger ?? quiet,
    appAddresses: {
      ...(call.baseUrl && { [overrideVariable(BASE_URL_PREFIX, app.key)]: call.baseUrl }),
      ...(call.authUrl && { [overrideVariable(AUTH_URL_PREFIX, app.key)]: call.authUrl }),
    },
  });

/** The connection a call runs with; OAuth2 apps' with their client (the redirect address is a test's). */
const connectionOf = (call: StepCall) =>
  call.auth
    ? {
        credentials: call.auth,
        oauth: call.oauthClient
          ? { client: call.oauthClient as OAuthClientSettings, redirectUri: TEST_REDIRECT_URI }
          : null,
      }
    : null;

/** Where a harnessed OAuth2 connection says it returns after consent. */
export const TEST_REDIRECT_URI = 'http://conveyor.test/app/callback';

/**
 * Runs one step through the same catalog a Conveyor instance uses: its parameters validated
 * against the step's arguments (InvalidParametersError when they do not fit), its HTTP client
 * guarded and authenticated as in a flow. Throws what the step throws.
 */
const withCatalog = async <T>(
  app: App,
  call: StepCall,
  run: (catalog: InProcessAppCatalog) => Promise<T>,
): Promise<T> => {
  const catalog = harnessCatalog(app, call);
  try {
    return await run(catalog);
  } finally {
    await catalog.close();
  }
};

const stepRun = (app: App, key: string, call: StepCall) => ({
  appKey: app.key,
  key,
  parameters: call.parameters ?? {},
  connection: connectionOf(call),
  execution: call.execution === undefined ? testExecution(app, key) : call.execution,
  store: call.store ?? createMemoryStore(),
  ...(call.signal && { signal: call.signal }),
});

/** Runs an action of `app` once and answers its output. */
export const runAppAction = (app: App, key: string, call: StepCall = {}): Promise<unknown> =>
  withCatalog(app, call, (catalog) => catalog.runAction(stepRun(app, key, call)));

/**
 * Runs an action of `app` once as the engine's step runner does, and answers the outcome a run
 * would record instead of throwing: a success, or a failure saying whether (and when) another
 * attempt is worth it, as a vendor's 429 with `Retry-After` becomes.
 */
export const runAppActionOutcome = (app: App, key: string, call: StepCall = {}): Promise<ActionOutcome> =>
  withCatalog(app, call, (catalog) =>
    createStepRunner(catalog, [app]).runAction({ ...stepRun(app, key, call), run: null }),
  );

/** How an agent uses an app's model or toolbox: with the connection, in the run of the step that asks. */
const connectedRun = (app: App, call: StepCall, use: 'toolbox' | 'languageModel') => ({
  appKey: app.key,
  connection: connectionOf(call),
  execution: call.execution === undefined ? testExecution(app, use) : call.execution,
  ...(call.signal && { signal: call.signal }),
});

/** The tools an app with the `toolbox` capability offers with the connection, as an agent lists them. */
export const listAppTools = (app: App, call: StepCall = {}): Promise<readonly ToolSpec[]> =>
  withCatalog(app, call, (catalog) => catalog.listTools(connectedRun(app, call, 'toolbox')));

/** Calls one of those tools as an agent does, and answers what it answered. Throws what the app throws. */
export const callAppTool = (
  app: App,
  name: string,
  args: Readonly<Record<string, unknown>>,
  call: StepCall = {},
): Promise<unknown> =>
  withCatalog(app, call, (catalog) =>
    catalog.callTool({ ...connectedRun(app, call, 'toolbox'), name, arguments: args }),
  );
/**
 * One chat turn with a language-model app's model (its `languageModel`), through the same catalog
 * an agent step uses: the connection's credentials, the guarded fetch, the base URL override.
 * Throws what the model throws (the kit's errors: `HttpError` with its status...).
 */
export const chatWithApp = (
  app: App,
  chat: ChatRequest,
  call: Omit<StepCall, 'parameters' | 'store'> = {},
): Promise<ChatAnswer> =>
  withCatalog(app, call, (catalog) => catalog.chat({ ...connectedRun(app, call, 'languageModel'), chat }));

/** The same chat turn as the engine records it: a failure (a 429 with its delay) is an outcome, not a throw. */
export const chatWithAppOutcome = (
  app: App,
  chat: ChatRequest,
  call: Omit<StepCall, 'parameters' | 'store'> = {},
): Promise<ChatOutcome> =>
  withCatalog(app, call, (catalog) =>
    createStepRunner(catalog, [app]).chat({ ...connectedRun(app, call, 'languageModel'), chat }),
  );

export interface TriggerCall extends StepCall {
  /** The request a webhook trigger handles; without `rawBody`, `body` as JSON text stands for it. */
  readonly webhook?: IncomingRequest | null;
  /** What the trigger's `registerHook` returned (`ctx.hook`); null by default. */
  readonly hook?: unknown;
}

/**
 * Runs a trigger of `app` once (with the webhook call it handles, for a webhook trigger) and
 * answers its items. A webhook trigger that refuses the call or answers it itself throws
 * `WebhookRefusedError` or `WebhookReplyRequested` (its `reply`), as the intake would see.
 */
export const runAppTrigger = (app: App, key: string, call: TriggerCall = {}): Promise<readonly TriggerItem[]> =>
  withCatalog(app, call, (catalog) =>
    catalog.runTrigger({ ...stepRun(app, key, call), webhook: call.webhook ?? null, hook: call.hook ?? null }),
  );

export interface HookCall extends Omit<StepCall, 'execution' | 'signal'> {
  /** The flow's webhook address the vendor is to deliver to. */
  readonly webhookUrl: string;
}

/**
 * Registers an instant trigger's hook as publishing its flow would (`registerHook`), and answers
 * what the app returned (what deliveries then see as `ctx.hook`). Throws what the app throws.
 */
export const registerAppHook = (app: App, key: string, call: HookCall): Promise<unknown> =>
  withCatalog(app, call, (catalog) =>
    catalog.registerHook({ ...stepRun(app, key, { ...call, execution: null }), webhookUrl: call.webhookUrl }),
  );

/** Removes the hook `registerAppHook` made, as unpublishing its flow would (`unregisterHook`). */
export const unregisterAppHook = (app: App, key: string, call: HookCall & { readonly hook: unknown }): Promise<void> =>
  withCatalog(app, call, (catalog) =>
    catalog.unregisterHook({
      ...stepRun(app, key, { ...call, execution: null }),
      webhookUrl: call.webhookUrl,
      hook: call.hook,
    }),
  );

/** Checks a connection's fields as connecting in the console would: the screen name, or the app's refusal. */
export const verifyAppAuth = (
  app: App,
  auth: Credentials,
  call: Omit<StepCall, 'auth'> & {
    /** PKCE apps: the verifier the consent was started with, which the code exchange sends. */
    readonly codeVerifier?: string | null;
  } = {},
): Promise<CredentialCheck> =>
  withCatalog(app, call, (catalog) => {
    const oauth = connectionOf({ ...call, auth })?.oauth ?? null;
    return catalog.verifyCredentials(
      app.key,
      auth,
      oauth && call.codeVerifier !== undefined ? { ...oauth, codeVerifier: call.codeVerifier } : oauth,
    );
  });

/** The options of a dynamic dropdown (`dynamicData` key), as the editor would list them. */
export const loadAppDynamicData = (app: App, key: string, call: StepCall = {}): Promise<readonly DynamicOption[]> =>
  withCatalog(app, call, (catalog) =>
    catalog.dynamicData({ appKey: app.key, key, parameters: call.parameters ?? {}, connection: connectionOf(call) }),
  );

/** The extra arguments a step's dynamic fields (`dynamicFields` key) add, as the editor would show them. */
export const loadAppDynamicFields = (
  app: App,
  key: string,
  call: StepCall = {},
): Promise<readonly ArgumentDescription[]> =>
  withCatalog(app, call, (catalog) =>
    catalog.dynamicFields({ appKey: app.key, key, parameters: call.parameters ?? {}, connection: connectionOf(call) }),
  );

/** A listener trigger's subscription opened by a test: what it received, and how to end it. */
export interface ListenerProbe {
  /** The messages the app emitted and the test accepted, in order. */
  readonly messages: readonly ListenerMessage[];
  /** Resolves when the app says it is subscribed; rejects if `listen` ended first. */
  subscribed(timeoutMs?: number): Promise<void>;
  /** Resolves with the first `count` messages accepted; rejects after `timeoutMs` (default 10 s) or if `listen` ended. */
  waitForMessages(count: number, timeoutMs?: number): Promise<readonly ListenerMessage[]>;
  /** How `listen` ended: null when it returned, else what it threw. */
  readonly ended: Promise<Error | null>;
  /** Aborts the subscription and waits for `listen` to return (or throw: its error is answered). */
  stop(): Promise<Error | null>;
}

export interface ListenCall extends Omit<StepCall, 'execution' | 'signal'> {
  /**
   * What accepting a message does, in place of the engine's durable acceptance: by default it is
   * kept at once. Throw to refuse it (the app must then not acknowledge it); wait to hold it.
   */
  readonly accept?: (message: ListenerMessage) => Promise<void>;
}

/**
 * Opens a listener trigger of `app` as a published flow would, through the same catalog: its
 * parameters validated, its sockets under the same private-network guard. The test publishes
 * messages to the real server and reads what the app emitted.
 */
export const listenWithApp = (app: App, key: string, call: ListenCall = {}): ListenerProbe => {
  const catalog = harnessCatalog(app, call);
  const abort = new AbortController();
  const messages: ListenerMessage[] = [];
  /** Waiters woken at every change (a message, the subscription, the end). */
  const waiters = new Set<() => void>();
  let isSubscribed = false;
  let end: Error | null | undefined;
  const notify = () => {
    for (const wake of waiters) wake();
    waiters.clear();
  };
  const onChange = () => new Promise<void>((resolve) => waiters.add(resolve));
  const ended = catalog
    .listen({
      appKey: app.key,
      key,
      parameters: call.parameters ?? {},
      connection: connectionOf(call),
      store: call.store ?? createMemoryStore(),
      signal: abort.signal,
      async emit(message) {
        await call.accept?.(message);
        messages.push(message);
        notify();
      },
      subscribed() {
        isSubscribed = true;
        notify();
      },
    })
    .then(
      () => null,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    )
    .then(async (result) => {
      end = result;
      await catalog.close();
      notify();
      return result;
    });

  const waitUntil = async (done: () => boolean, timeoutMs: number, what: string) => {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (end !== undefined) throw new Error(`listen ended before ${what}: ${end?.message ?? 'it returned'}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        onChange(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, left);
        }),
      ]);
      clearTimeout(timer);
    }
  };

  return {
    messages,
    subscribed: (timeoutMs = 10_000) => waitUntil(() => isSubscribed, timeoutMs, 'the subscription'),
    async waitForMessages(count, timeoutMs = 10_000) {
      await waitUntil(() => messages.length >= count, timeoutMs, `${count} messages (got ${messages.length})`);
      return messages.slice(0, count);
    },
    ended,
    stop() {
      abort.abort();
      return ended;
    },
  };
};
