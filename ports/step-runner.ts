import type { ConnectionUse } from './app-catalog.js';
import type { ChatAnswer, ChatRequest, TokenUsage, ToolSpec } from './language-model.js';

/** The durable memory an app sees as `ctx.store`. */
export interface StepStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

/** What reaches a waiting run from outside: a request on its resume URL, an approval, a form's answers. */
export type SignalKind = 'webhook' | 'approval' | 'form';

export interface RunSignal {
  readonly kind: SignalKind;
  readonly payload: unknown;
  readonly at: Date;
}

/** A run another run called, as it stands. */
export interface CalledRun {
  readonly executionId: string;
  readonly status: 'running' | 'waiting' | 'success' | 'failure';
  /** What the called flow handed back (its `returnResult`, else its last step's output); null until it ends. */
  readonly result: unknown;
  /** Why it failed, when it did. */
  readonly error: string | null;
}

/**
 * What a step may ask of the run it is in, beyond returning an outcome: flow control's apps (calling
 * a flow, waiting for a request, an approval or a form) use it. Every method is idempotent for the
 * step where it runs (the step's id and its loop iterations): a step that suspends runs again later,
 * and asks again.
 */
export interface RunControl {
  /** Where a request resumes this run (`{{execution.resumeUrl}}`); approval and form links are under it. */
  resumeUrl(): Promise<string>;
  /** Keeps a small value for this step where it runs: the first value kept stays and is what every call answers. */
  keep<T>(value: T): Promise<T>;
  /**
   * The signal of that kind this step took already; else the oldest the run received that no step
   * took, now taken by this one; else null.
   */
  takeSignal(kind: SignalKind): Promise<RunSignal | null>;
  /**
   * Starts the flow (its published version, through its `flows.calledByFlow` trigger) as a call from
   * this step, once: asked again, it answers the same run. Refused (with the reason) for a flow the
   * run's owner may not run, one that is not published or does not start with that trigger, or a
   * call deeper than the instance allows.
   */
  callFlow(
    flowId: string,
    input: Readonly<Record<string, unknown>>,
  ): Promise<{ readonly ok: true; readonly executionId: string } | { readonly ok: false; readonly reason: string }>;
  /** A run this run called, as it stands; null for any other. */
  calledRun(executionId: string): Promise<CalledRun | null>;
  /**
   * Runs an agent of the run's owner (the `agents` app's step) in its tool-calling loop, as this
   * step: its model and tool calls are recorded under the step, and asked again (the step ran
   * again after a suspend or a crash) it carries on from them, never making a finished call again.
   * It suspends while a tool call waits for a person's approval or a called flow.
   */
  runAgent(request: AgentRunRequest): Promise<AgentRunOutcome>;
}

export interface AgentRunRequest {
  readonly agentId: string;
  readonly prompt: string;
  /** With the agent's memory on: the conversation (per flow and key) it remembers and goes on. */
  readonly conversationKey?: string | null;
}

/** The `runAgent` step's output. */
export interface AgentRunOutput {
  /** The model's last answer. */
  readonly output: string;
  readonly agentExecutionId: string;
  /** Model calls made. */
  readonly iterations: number;
  readonly usage: TokenUsage;
  readonly toolCalls: number;
}

export type AgentRunOutcome =
  | { readonly kind: 'success'; readonly output: AgentRunOutput }
  /** Record nothing: the step runs again at `until` or when woken (an approval, a called run's end). */
  | { readonly kind: 'suspend'; readonly until: Date }
  | { readonly kind: 'failure'; readonly failure: StepFailure };

export interface StepRunRequest {
  readonly appKey: string;
  readonly key: string;
  /** Variables already filled in. */
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly connection: ConnectionUse | null;
  readonly store: StepStore;
  readonly execution: {
    readonly id: string;
    readonly flowId: string;
    readonly stepId: string;
    readonly testRun: boolean;
    /** Stable across attempts of the same execution step; apps pass it to APIs that deduplicate. */
    readonly idempotencyKey: string;
  } | null;
  /** What the step may ask of its run; null outside runs. */
  readonly run?: RunControl | null;
}

export interface IncomingRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  /** A parameter given more than once has every value, as an array (as Express reads a query). */
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  readonly body: unknown;
  /**
   * The body exactly as received ('' when empty): what vendors sign. Requests the engine makes
   * itself (a flow called by another, a form's answers) have none: the app sees `body` as JSON.
   */
  readonly rawBody?: string;
}

export interface StepFailure {
  readonly message: string;
  /** Worth another attempt later (network, time-out, 5xx, 429). */
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly details?: Readonly<Record<string, unknown>>;
}

export type ActionOutcome =
  | { readonly kind: 'success'; readonly output: unknown }
  /** Record the output, then end the run as a success (a filter that did not match). */
  | {
      readonly kind: 'stop';
      readonly output: unknown;
      /** End the run as a failure, for this reason, instead (`flows.stopExecution`). */
      readonly failure?: string;
    }
  /** Record the output, then go on with the next step at `until` (a delay). */
  | { readonly kind: 'wait'; readonly until: Date; readonly output: unknown }
  /**
   * Record nothing: the run pauses, holding no worker, and this step runs again at `until` or as soon
   * as a signal reaches the run or a run it called ends (a wait for a request, an approval, a call).
   */
  | { readonly kind: 'suspend'; readonly until: Date }
  | { readonly kind: 'failure'; readonly failure: StepFailure };

export interface TriggerItem {
  /** Polling triggers: what identifies the item across polls. */
  readonly id?: string;
  readonly data: unknown;
}

/** A webhook trigger's own answer to a request (a vendor's verification handshake). */
export interface TriggerReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Text as it is, anything else as JSON; null for no body. */
  readonly body: unknown;
}

/** A trigger's items, or why there are none. */
export type ItemsOutcome =
  | { readonly kind: 'success'; readonly items: readonly TriggerItem[] }
  | { readonly kind: 'failure'; readonly failure: StepFailure };

export type TriggerOutcome =
  | ItemsOutcome
  /** A webhook trigger refused the request (its signature does not verify): no run, a 401. */
  | { readonly kind: 'refused'; readonly reason: string }
  /** A webhook trigger answered the request itself: no run. */
  | { readonly kind: 'reply'; readonly reply: TriggerReply };

/** What an instant trigger's hook is registered with, and removed with later. */
export interface HookRequest {
  readonly appKey: string;
  readonly key: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly connection: ConnectionUse | null;
  /** The flow's public webhook address, where the vendor is to deliver. */
  readonly webhookUrl: string;
  /** The flow's store; none when removing the hook of a flow that may be gone. */
  readonly store?: StepStore;
}

export type HookOutcome =
  /** What `registerHook` returned, as JSON holds it (null for nothing): to keep until the hook is removed. */
  { readonly kind: 'registered'; readonly hook: unknown } | { readonly kind: 'failure'; readonly failure: StepFailure };

export type UnhookOutcome = { readonly kind: 'removed' } | { readonly kind: 'failure'; readonly failure: StepFailure };

/** A message a listener trigger received (the SDK's `ListenerMessage`). */
export interface ListenedMessage {
  /** The server's id of the message, stable across redeliveries: one run per id. */
  readonly id?: string;
  /** A digest of `data`: what tells a redelivered message without an id from a new one. */
  readonly contentKey: string;
  /** The server may have delivered it before: without an id, its content decides whether it is new. */
  readonly redelivered: boolean;
  /** As JSON holds it. */
  readonly data: unknown;
}

/** What a listener trigger's subscription is opened with. */
export interface ListenRequest {
  readonly appKey: string;
  readonly key: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly connection: ConnectionUse | null;
  readonly store: StepStore;
  /** Aborted to close the subscription. */
  readonly signal: AbortSignal;
  /** Resolves once the message's run is durably accepted (then the app acknowledges it). */
  emit(message: ListenedMessage): Promise<void>;
  /** The app says the subscription is open. */
  subscribed(): void;
}

/** How a subscription ended: closed when asked, or broken (the engine opens it again later). */
export type ListenOutcome = { readonly kind: 'closed' } | { readonly kind: 'failure'; readonly failure: StepFailure };

/** Runs apps' actions and triggers; a failure of the app is an outcome, never a throw. */
export interface StepRunner {
  runAction(request: StepRunRequest): Promise<ActionOutcome>;
  /** `hook`: what the trigger's `registerHook` returned when the flow was published; null when none. */
  runTrigger(
    request: StepRunRequest & { readonly webhook: IncomingRequest | null; readonly hook?: unknown },
  ): Promise<TriggerOutcome>;
  /** Whether the trigger registers a hook with its vendor when its flow is published (an instant trigger). */
  registersHook(appKey: string, key: string): boolean;
  /** Asks an instant trigger to register its hook with the vendor (`registerHook`). */
  registerHook(request: HookRequest): Promise<HookOutcome>;
  /** Asks the trigger to remove the hook it registered (`unregisterHook`, given `hook`). */
  unregisterHook(request: HookRequest & { readonly hook: unknown }): Promise<UnhookOutcome>;
  /** Holds a listener trigger's subscription open until `request.signal` aborts or it breaks. */
  listen(request: ListenRequest): Promise<ListenOutcome>;
  /**
   * When a schedule or polling trigger with these parameters fires: a cron expression and time
   * zone; null for webhook triggers and parameters that name no schedule.
   */
  scheduleOf(appKey: string, key: string, parameters: Readonly<Record<string, unknown>>): Schedule | null;
  /** One chat turn with a language-model app (one with the `languageModel` capability) and its connection. */
  chat(request: ConnectedRequest & { readonly chat: ChatRequest }): Promise<ChatOutcome>;
  /** The tools an app with the `toolbox` capability offers with the connection (an MCP server's). */
  listTools(request: ConnectedRequest): Promise<ToolListOutcome>;
  /** Calls one of those tools. */
  callTool(
    request: ConnectedRequest & { readonly name: string; readonly arguments: Readonly<Record<string, unknown>> },
  ): Promise<ToolCallOutcome>;
}

/** An app used with a connection outside any step of its own: a model or a toolbox an agent uses. */
export interface ConnectedRequest {
  readonly appKey: string;
  readonly connection: ConnectionUse | null;
  /** The run and step asking, for the app's logs and idempotency keys; null outside runs. */
  readonly execution: StepRunRequest['execution'];
  readonly signal?: AbortSignal;
}

export type ChatOutcome =
  | { readonly kind: 'success'; readonly answer: ChatAnswer }
  | { readonly kind: 'failure'; readonly failure: StepFailure };

export type ToolListOutcome =
  | { readonly kind: 'success'; readonly tools: readonly ToolSpec[] }
  | { readonly kind: 'failure'; readonly failure: StepFailure };

export type ToolCallOutcome =
  | { readonly kind: 'success'; readonly output: unknown }
  | { readonly kind: 'failure'; readonly failure: StepFailure };

export interface Schedule {
  readonly cron: string;
  readonly timezone: string;
}
