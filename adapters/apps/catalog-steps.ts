import type * as v from 'valibot';
import type { AppCatalog, ConnectionUse } from '../../ports/app-catalog.js';
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

/** Triggers and actions called directly. */
export interface StepHooks {
  /** Throws InvalidParametersError for parameters that do not fit, or what the app throws. */
  runAction(run: StepRun): Promise<unknown>;
  runTrigger(run: StepRun & { readonly webhook?: WebhookRequest | null }): Promise<readonly TriggerItem[]>;
  /** Runs a listener trigger's `listen` until `run.signal` aborts (it resolves) or it breaks (it throws). */
  listen(run: ListenRun): Promise<void>;
}

export interface ListenRun extends Omit<StepRun, 'execution' | 'run' | 'signal'> {
  readonly signal: AbortSignal;
  emit(message: ListenerMessage): Promise<void>;
  subscribed(): void;
}

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
    return step.run({ ...session.context(parameters), webhook: run.webhook ?? null });
  },

  async listen(run) {
    const app = apps.get(run.appKey);
    const { step, parameters } = parse(app, app.triggers, run.key, run.parameters);
    if (!step.listen) throw new Error(`${app.key}.${step.key} is not a listener trigger.`);
    const session = open(app, run.connection, { ...run, execution: null, step: step.key });
    await step.listen({ ...session.context(parameters), emit: run.emit, subscribed: run.subscribed });
  },
});
