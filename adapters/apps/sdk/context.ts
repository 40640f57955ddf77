import type { Credentials } from '../../../core/domain/app.js';
import type { OAuthClientSettings } from '../../../ports/app-catalog.js';
import type { Logger } from '../../../ports/logger.js';
import type { RunControl } from '../../../ports/step-runner.js';
import type { HttpClient } from './http-client.js';
import type { NetworkPolicy } from './network-guard.js';

/** The connection a hook runs with. */
export interface AuthAccess<TData = Credentials, TClient = OAuthClientSettings | null> {
  /** The stored credentials (for OAuth2: the tokens, and the client settings a user entered). */
  readonly data: TData;
  /** OAuth2 apps: the client the connection authorizes with; null otherwise. */
  readonly client: TClient;
  /** Merges new values (e.g. refreshed tokens) into the stored credentials. */
  set(partial: Credentials): Promise<void>;
}

/** Small durable state of a step or trigger between runs (e.g. the last item a poll saw). */
export interface Store {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

/** A store that forgets everything when the process ends: enough until runs persist state. */
export const createMemoryStore = (): Store => {
  const values = new Map<string, unknown>();
  return {
    get: async (key) => values.get(key),
    set: async (key, value) => {
      values.set(key, value);
    },
  };
};

export interface ExecutionInfo {
  readonly id: string;
  /** The flow the execution runs. */
  readonly flowId: string;
  readonly stepId: string;
  readonly testRun: boolean;
  /** Stable across retries of the same execution step: pass it to APIs that deduplicate. */
  readonly idempotencyKey: string;
}

/**
 * What a step may ask of the run it is in (calling a flow, waiting for a request, an approval or
 * a form): the engine's RunControl. Idempotent for the step where it runs, since a suspended step
 * runs again and asks again.
 */
export type RunAccess = RunControl;

export type NoParameters = Readonly<Record<string, never>>;

/** What every hook receives; it returns its result. */
export interface AppContext<TParameters = NoParameters, TAuth = AuthAccess> {
  readonly parameters: TParameters;
  readonly auth: TAuth;
  readonly http: HttpClient;
  readonly store: Store;
  readonly log: Logger;
  readonly signal: AbortSignal;
  /** The execution step being run; null outside runs (verification, dynamic data). */
  readonly execution: ExecutionInfo | null;
  /** The run this step is in; null outside runs. */
  readonly run: RunAccess | null;
  /** For apps that open their own sockets: pass it to `assertHostAllowed`. */
  readonly network: NetworkPolicy;
  /**
   * For vendors' SDKs, which take a `fetch`: the instance's connection pool and network guard, its
   * requests cut with `signal`. It adds no auth, no retries and no base URL: the SDK does those.
   */
  readonly fetch: typeof fetch;
  /** Where the app's API is for this connection (a self-hosted server's, or an `APP_BASE_URL_<KEY>` override): for SDKs. */
  readonly apiBaseUrl: string | undefined;
}

/** An incoming webhook call, for webhook triggers. */
export interface WebhookRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  /** A parameter given more than once has every value, as an array. */
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  /** JSON and form bodies parsed; any other body as text; null when empty. */
  readonly body: unknown;
  /**
   * The body exactly as received, decoded as UTF-8 ('' when empty): what vendors sign. Compute a
   * signature over this, never over `body` serialised again (key order and spacing differ).
   */
  readonly rawBody: string;
}

export interface TriggerContext<TParameters = NoParameters> extends AppContext<TParameters> {
  /** Webhook triggers: the call being handled; null for polling and schedule triggers. */
  readonly webhook: WebhookRequest | null;
  /**
   * Instant triggers: what the trigger's `registerHook` returned when the flow was published (the
   * vendor's hook id, the signing secret it gave), as JSON keeps it; null when none is stored
   * (the flow is not published, or the trigger registers nothing).
   */
  readonly hook: unknown;
}

/**
 * What an instant trigger's `registerHook` receives when its flow is published: the usual context,
 * with the trigger's connection and parameters, and the address the vendor is to deliver to.
 */
export interface RegisterHookContext<TParameters = NoParameters> extends AppContext<TParameters> {
  /** The flow's public webhook address (the Flow resource's `webhookUrl`). */
  readonly webhookUrl: string;
}

/**
 * What `unregisterHook` receives when the flow is unpublished or deleted, or publishes another
 * trigger: the connection, parameters and address the hook was registered with, and its state.
 * It may run after the step was changed or deleted, or after the app's arguments changed, so
 * rely on `hook` first: `parameters` are those stored, checked against the arguments when they
 * still fit.
 */
export interface UnregisterHookContext<TParameters = NoParameters> extends RegisterHookContext<TParameters> {
  /** What `registerHook` returned. */
  readonly hook: unknown;
}

/** One message a listener trigger received, handed to the engine with `ctx.emit`. */
export interface ListenerMessage {
  /**
   * What the server calls this message, stable across its redeliveries (an AMQP message id, a
   * stream entry id, a JetStream sequence, a mailbox's UID validity and UID): the engine starts one
   * run per id, so a message redelivered after a crash starts no second run.
   */
  readonly id?: string;
  /**
   * The server says it may have handed this message out before (AMQP `redelivered`, MQTT `dup`, a
   * JetStream delivery count over one). A message without an id is then skipped when one with the
   * same content was accepted already; without this flag, equal contents each start a run.
   */
  readonly redelivered?: boolean;
  /** The trigger's output: what the flow's steps read as the trigger step's data. */
  readonly data: unknown;
}

/**
 * What a listener trigger's `listen` receives: the usual context (its `signal` aborts when the
 * subscription is to close) and the two ways to talk to the engine.
 */
export interface ListenerContext<TParameters = NoParameters> extends AppContext<TParameters> {
  /**
   * Hands one message to the engine. Resolves once its run is durably accepted (or it was a
   * duplicate): acknowledge it to the server then, never before. Rejects when it could not be
   * accepted (the database away, the subscription closing): leave it unacknowledged, or give it
   * back, so that the server delivers it again. It may take a while to resolve: while the flow's
   * backlog of unfinished runs is over its limit, it waits. Take no more messages meanwhile (a
   * prefetch of a few, a consumer that awaits each) and the server holds the rest.
   */
  emit(message: ListenerMessage): Promise<void>;
  /** Call once the subscription is open and taking messages: the flow shows it as listening. */
  subscribed(): void;
}
