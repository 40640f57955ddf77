import type * as v from 'valibot';
import type { AppCatalog, ConnectionUse } from '../../ports/app-catalog.js';
import type { ChatAnswer, ChatRequest, ToolSpec } from '../../ports/language-model.js';
import type { IncomingRequest } from '../../ports/step-runner.js';
import type { CatalogParts } from './catalog-apps.js';
import {
  type App,
  type ExecutionInfo,
  InvalidParametersError,
  type ListenerMessage,
  type RunAccess,
  type Store,
  type TriggerItem,
  type WebhookRequest,
} from './sdk/index.js';
import { validate } from './sdk/validation.js';

export interface StepRun {
  readonly appKey: string;
  /** The trigger or action key. */
  readonly key: string;
  /** Raw parameters (variables already substituted); validated against the step's arguments. */
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly connection: ConnectionUse | null;
  readonly execution: ExecutionInfo | null;
  readonly run?: RunAccess | null;
  readonly signal?: AbortSignal;
  readonly store?: Store;
}

/** A trigger run for a webhook delivery: the request, and the state its hook's registration left. */
export interface TriggerRun extends StepRun {
  readonly webhook?: IncomingRequest | null;
  readonly hook?: unknown;
}

/** An app used with a connection outside its own steps: a model an agent asks, a toolbox it uses. */
export interface ConnectedRun {
  readonly appKey: string;
  readonly connection: ConnectionUse | null;
  readonly execution: ExecutionInfo | null;
  readonly signal?: AbortSignal;
}

/** Triggers and actions called directly. */
export interface StepHooks {
  /** One chat turn with the app's language model. Throws what the model throws. */
  chat(run: ConnectedRun & { readonly chat: ChatRequest }): Promise<ChatAnswer>;
  listTools(run: ConnectedRun): Promise<readonly ToolSpec[]>;
  callTool(
    run: ConnectedRun & { readonly name: string; readonly arguments: Readonly<Record<string, unknown>> },
  ): Promise<unknown>;
  /** Throws InvalidParametersError for parameters that do not fit, or what the app throws. */
  runAction(run: StepRun): Promise<unknown>;
  runTrigger(run: TriggerRun): Promise<readonly TriggerItem[]>;
  /** Runs a listener trigger's `listen` until `run.signal` aborts (it resolves) or it breaks (it throws). */
  listen(run: ListenRun): Promise<void>;
  /** Runs an instant trigger's `registerHook` and answers what it returned. Throws what the app throws. */
  registerHook(run: HookRun): Promise<unknown>;
  /** Runs the trigger's `unregisterHook` with the state `registerHook` returned. */
  unregisterHook(run: HookRun & { readonly hook: unknown }): Promise<void>;
}

/** A hook registered or removed: the trigger, its connection and parameters, and the flow's address. */
export interface HookRun {
  readonly appKey: string;
  readonly key: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly connection: ConnectionUse | null;
  readonly webhookUrl: string;
  readonly store?: Store;
}

export interface ListenRun extends Omit<StepRun, 'execution' | 'run' | 'signal'> {
  readonly signal: AbortSignal;
  emit(message: ListenerMessage): Promise<void>;
  subscribed(): void;
}

/** The request as the trigger sees it: one the engine made itself has its body as JSON text for raw body. */
const webhookOf = (request: IncomingRequest | null | undefined): WebhookRequest | null => {
  if (!request) return null;
  const { rawBody, body } = request;
  if (rawBody !== undefined) return { ...request, rawBody };
  return {
    ...request,
    rawBody: body === null || body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body),
  };
};

type Steps = Pick<AppCatalog, 'checkStepParameters'> & StepHooks;

/** The step of that key among an app's triggers or actions, with the parameters it validated. */
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

/** A step's parameters checked while it is edited, and its trigger or action run. */
export const stepHooks = ({ apps, open }: CatalogParts): Steps => ({
  checkStepParameters(appKey, kind, key, parameters) {
    const app = apps.get(appKey);
    const step = (kind === 'trigger' ? app.triggers : app.actions).find((s) => s.key === key);
    if (!step) throw new Error(`${appKey} has no ${kind} "${key}".`);
    const parsed = validate(step.parameters, parameters);
    return parsed.ok ? null : parsed.fields;
  },

  async chat(run) {
    const app = apps.get(run.appKey);
    if (!app.languageModel) throw new Error(`${app.manifest.name} is not a language model.`);
    const session = open(app, run.connection, { ...run, step: 'languageModel' });
    return app.languageModel(session.context({})).chat(run.chat);
  },

  async listTools(run) {
    const app = apps.get(run.appKey);
    if (!app.toolbox) throw new Error(`${app.manifest.name} offers no tools.`);
    const session = open(app, run.connection, { ...run, step: 'toolbox' });
    return app.toolbox.list(session.context({}));
  },

  async callTool(run) {
    const app = apps.get(run.appKey);
    if (!app.toolbox) throw new Error(`${app.manifest.name} offers no tools.`);
    const session = open(app, run.connection, { ...run, step: 'toolbox' });
    return app.toolbox.call(session.context({}), run.name, run.arguments);
  },

  async runAction(run) {
    const app = apps.get(run.appKey);
    const { step, parameters } = parse(app, app.actions, run.key, run.parameters);
    const session = open(app, run.connection, { ...run, step: step.key });
    return step.run(session.context(parameters));
  },

  async runTrigger(run) {
    const app = apps.get(run.appKey);
    const { step, parameters } = parse(app, app.triggers, run.key, run.parameters);
    const session = open(app, run.connection, { ...run, step: step.key });
    return step.run({ ...session.context(parameters), webhook: webhookOf(run.webhook), hook: run.hook ?? null });
  },

  async registerHook(run) {
    const app = apps.get(run.appKey);
    const { step, parameters } = parse(app, app.triggers, run.key, run.parameters);
    if (!step.registerHook) throw new Error(`${app.key}.${step.key} registers no hook.`);
    const session = open(app, run.connection, { ...run, execution: null, step: step.key });
    return step.registerHook({ ...session.context(parameters), webhookUrl: run.webhookUrl });
  },

  async unregisterHook(run) {
    const app = apps.get(run.appKey);
    const step = app.triggers.find((s) => s.key === run.key);
    if (!step?.unregisterHook) throw new Error(`${app.key}.${run.key} no longer removes hooks.`);
    // The hook was registered with these parameters, under the arguments of then: what still fits
    // them is parsed; what no longer does is handed over as stored, for the app to read its `hook`.
    const parsed = validate(step.parameters, run.parameters);
    const parameters = parsed.ok ? parsed.value : run.parameters;
    const session = open(app, run.connection, { ...run, execution: null, step: step.key });
    await step.unregisterHook({ ...session.context(parameters as never), webhookUrl: run.webhookUrl, hook: run.hook });
  },

  async listen(run) {
    const app = apps.get(run.appKey);
    const { step, parameters } = parse(app, app.triggers, run.key, run.parameters);
    if (!step.listen) throw new Error(`${app.key}.${step.key} is not a listener trigger.`);
    const session = open(app, run.connection, { ...run, execution: null, step: step.key });
    await step.listen({ ...session.context(parameters), emit: run.emit, subscribed: run.subscribed });
  },
});
