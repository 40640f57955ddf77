import type { Repositories } from '../../ports/repositories.js';
import type { IncomingRequest, ItemsOutcome, TriggerItem, TriggerOutcome } from '../../ports/step-runner.js';
import type { TriggerType } from '../domain/app.js';
import type { Flow, Step, VersionRef } from '../domain/flow.js';
import type { EngineDeps } from './deps.js';
import { type HookSync, hookStateFor, syncFlowHook } from './flow-hooks.js';
import { flowStore } from './flow-store.js';
import { FLOW_TRIGGER_JOB, flowScheduleKey } from './jobs.js';
import { startRuns } from './start-runs.js';
import { stepConnection } from './step-connection.js';
import { definitionOf } from './step-definition.js';
import { versionStepsOf } from './version-steps.js';

/** Whether a user's flows may run now (their plan's quota); the application's billing answers it. */
export interface RunAllowance {
  mayRun(userId: string): Promise<boolean>;
}

type Deps = Pick<EngineDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps' | 'runner' | 'queue' | 'logger' | 'settings'>;

export const triggerTypeOf = (deps: Pick<EngineDeps, 'apps'>, step: Step): TriggerType | null =>
  step.type === 'trigger' ? (definitionOf(deps.apps, step)?.description.type ?? null) : null;

export interface Triggered {
  readonly flow: Flow;
  readonly trigger: Step;
  /** What its runs run on: the published version of an active flow; null, the draft (test data). */
  readonly version: VersionRef | null;
}

/**
 * A flow with the trigger it listens with: an active flow's is its published version's, an
 * inactive one's its draft's (which only records test data). Null when the flow is gone or has no
 * trigger step.
 */
export const loadTriggered = async (deps: Pick<EngineDeps, 'repos'>, flowId: string): Promise<Triggered | null> => {
  const found = await deps.repos.flows.findWithTrigger(flowId);
  if (!found) return null;
  const { flow } = found;
  const version = flow.active ? flow.publishedVersion : null;
  const trigger = version
    ? ((await versionStepsOf(deps.repos)(version.id))?.find((step) => step.type === 'trigger') ?? null)
    : found.trigger;
  return trigger ? { flow, trigger, version } : null;
};

type TriggerDeps = Pick<EngineDeps, 'repos' | 'uow' | 'clock' | 'apps' | 'runner'>;

/** Runs a flow's trigger with the trigger step's connection and the flow's store. */
const runTriggerStep = async (
  deps: TriggerDeps,
  flowId: string,
  trigger: Step,
  webhook: IncomingRequest | null,
  hook: unknown,
): Promise<TriggerOutcome> => {
  const connection =
    trigger.appKey === null || trigger.key === null
      ? ({ ok: false, reason: 'The trigger has no app or event chosen.' } as const)
      : await stepConnection(deps, trigger);
  if (!connection.ok || trigger.appKey === null || trigger.key === null) {
    const message = connection.ok ? 'The trigger cannot run.' : connection.reason;
    return { kind: 'failure', failure: { message, retryable: false } };
  }
  return deps.runner.runTrigger({
    appKey: trigger.appKey,
    key: trigger.key,
    parameters: trigger.parameters,
    connection: connection.value,
    store: flowStore(deps.repos, flowId, deps.clock),
    execution: null,
    webhook,
    hook,
  });
};

/**
 * Runs a flow's trigger for what the engine itself hands it (a poll, a schedule's tick, a call by
 * another flow): its items, or why there are none (the failure of the app, or a step that cannot
 * run). Refusing or answering a request is a webhook delivery's alone: here the trigger failed.
 */
export const runFlowTrigger = async (
  deps: TriggerDeps,
  flowId: string,
  trigger: Step,
  webhook: IncomingRequest | null,
): Promise<ItemsOutcome> => {
  const outcome = await runTriggerStep(deps, flowId, trigger, webhook, null);
  if (outcome.kind === 'refused') return { kind: 'failure', failure: { message: outcome.reason, retryable: false } };
  if (outcome.kind === 'reply') {
    const message = 'The trigger answered with a reply of its own instead of items.';
    return { kind: 'failure', failure: { message, retryable: false } };
  }
  return outcome;
};

/**
 * Runs a flow's webhook trigger for a request to its address: an instant trigger sees the hook
 * its publish registered (`ctx.hook`), and may refuse the request or answer it itself.
 */
export const runWebhookDelivery = async (
  deps: TriggerDeps,
  flowId: string,
  trigger: Step,
  request: IncomingRequest,
): Promise<TriggerOutcome> => {
  const hook =
    trigger.appKey && trigger.key && deps.runner.registersHook(trigger.appKey, trigger.key)
      ? await hookStateFor(deps, flowId, trigger)
      : null;
  return runTriggerStep(deps, flowId, trigger, request, hook);
};

/**
 * Makes a flow's trigger match the flow as stored, since only published flows fire: registers,
 * replaces or removes the queue schedule of a schedule or polling trigger, asks for (or drops)
 * the subscription of a listener trigger, which a worker then opens, and registers, swaps or
 * removes an instant trigger's hook with its vendor. Answers whether the vendor took the hook.
 */
export const makeSyncFlowTrigger =
  (deps: Deps) =>
  async (flowId: string): Promise<HookSync> => {
    const loaded = await loadTriggered(deps, flowId);
    const trigger = loaded?.flow.active ? loaded.trigger : null;
    if (trigger && triggerTypeOf(deps, trigger) === 'listener') {
      await deps.repos.listeners.want(flowId, loaded?.version?.id ?? null, trigger.connectionId, deps.clock.now());
    } else {
      await deps.repos.listeners.drop(flowId);
    }
    const schedule =
      trigger?.appKey && trigger.key ? deps.runner.scheduleOf(trigger.appKey, trigger.key, trigger.parameters) : null;
    if (schedule) {
      await deps.queue.schedule(flowScheduleKey(flowId), schedule.cron, schedule.timezone, {
        name: FLOW_TRIGGER_JOB,
        payload: { flowId },
      });
    } else {
      await deps.queue.unschedule(flowScheduleKey(flowId));
    }
    return syncFlowHook(deps, flowId, trigger);
  };

/** The polling trigger's first look only learns what exists: items already there start no run. */
const firstPollKey = (stepId: string) => `conveyor:polled:${stepId}`;

/**
 * Polling: the items not seen before (each internal id once per flow, by a unique constraint),
 * oldest first. Items without an id are always new.
 */
const newItems = (deps: Deps, flow: Flow, trigger: Step, items: readonly TriggerItem[]) => async (tx: Repositories) => {
  const now = deps.clock.now();
  const ids = items.flatMap((item) => (item.id === undefined ? [] : [item.id]));
  const fresh = new Set(await tx.seenItems.remember(flow.id, ids, now));
  if ((await tx.flowStore.get(flow.id, firstPollKey(trigger.id))) === undefined) {
    await tx.flowStore.set(flow.id, firstPollKey(trigger.id), true, now);
    return [];
  }
  return items.filter((item) => item.id === undefined || fresh.has(item.id)).reverse();
};

/** Fires a published flow's schedule or polling trigger (a queue job), starting a run per new item. */
export const makeFireTrigger = (deps: Deps & { readonly billing: RunAllowance }) => async (flowId: string) => {
  const loaded = await loadTriggered(deps, flowId);
  if (!loaded?.flow.active) return;
  const { flow, trigger, version } = loaded;
  if (!(await deps.billing.mayRun(flow.userId))) {
    // Skipped, not postponed: the ticks missed while over quota are not made up later.
    deps.logger.info({ flowId }, 'trigger skipped: the owner is over quota');
    return;
  }
  const type = triggerTypeOf(deps, trigger);
  if (type !== 'schedule' && type !== 'polling') return;
  const outcome = await runFlowTrigger(deps, flow.id, trigger, null);
  if (outcome.kind === 'failure') {
    // The next tick tries again; a poll that failed has remembered nothing.
    deps.logger.warn({ flowId, reason: outcome.failure.message }, 'trigger failed');
    return;
  }
  // Remembering the items and starting their runs is one transaction: a crash loses neither.
  const items = type === 'polling' ? newItems(deps, flow, trigger, outcome.items) : outcome.items;
  await startRuns(deps, { flowId, trigger, version, dataIn: trigger.parameters, items, testRun: false });
};
