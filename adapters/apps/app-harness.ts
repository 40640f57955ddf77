import type { Credentials } from '../../core/domain/app.js';
import type { CredentialCheck } from '../../ports/app-catalog.js';
import type { Logger } from '../../ports/logger.js';
import { createAppCatalog, type InProcessAppCatalog } from './app-catalog.js';
import {
  type App,
  createMemoryStore,
  type ExecutionInfo,
  type ListenerMessage,
  type Store,
  type TriggerItem,
  type WebhookRequest,
} from './sdk/index.js';

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
}

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

const testExecution = (app: App, key: string): ExecutionInfo => ({
  id: 'test-execution',
  flowId: 'test-flow',
  stepId: `${app.key}.${key}`,
  testRun: true,
  idempotencyKey: `test-execution:${app.key}.${key}`,
});

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
  const catalog = createAppCatalog({
    apps: [app],
    allowPrivateNetworks: call.allowPrivateNetworks ?? true,
    logger: call.logger ?? quiet,
  });
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
  connection: call.auth ? { credentials: call.auth, oauth: null } : null,
  execution: call.execution === undefined ? testExecution(app, key) : call.execution,
  store: call.store ?? createMemoryStore(),
  ...(call.signal && { signal: call.signal }),
});

/** Runs an action of `app` once and answers its output. */
export const runAppAction = (app: App, key: string, call: StepCall = {}): Promise<unknown> =>
  withCatalog(app, call, (catalog) => catalog.runAction(stepRun(app, key, call)));

/** Runs a trigger of `app` once (with the webhook call it handles, for a webhook trigger) and answers its items. */
export const runAppTrigger = (
  app: App,
  key: string,
  call: StepCall & { readonly webhook?: WebhookRequest | null } = {},
): Promise<readonly TriggerItem[]> =>
  withCatalog(app, call, (catalog) =>
    catalog.runTrigger({ ...stepRun(app, key, call), webhook: call.webhook ?? null }),
  );

/** Checks a connection's fields as connecting in the console would: the screen name, or the app's refusal. */
export const verifyAppAuth = (
  app: App,
  auth: Credentials,
  call: Omit<StepCall, 'auth'> = {},
): Promise<CredentialCheck> => withCatalog(app, call, (catalog) => catalog.verifyCredentials(app.key, auth, null));

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
  const catalog = createAppCatalog({
    apps: [app],
    allowPrivateNetworks: call.allowPrivateNetworks ?? true,
    logger: call.logger ?? quiet,
  });
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
      connection: call.auth ? { credentials: call.auth, oauth: null } : null,
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
