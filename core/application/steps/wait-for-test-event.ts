import type { Actor } from '../../domain/actor.js';
import { appCallFailed, type DomainError, invalidInput } from '../../domain/errors.js';
import type { Step } from '../../domain/flow.js';
import { err, ok, type Result } from '../../domain/result.js';
import { flowStore } from '../../engine/flow-store.js';
import { loadTriggered, runFlowTrigger, triggerTypeOf } from '../../engine/flow-triggers.js';
import { stepConnection } from '../../engine/step-connection.js';
import type { CoreDeps } from '../deps.js';
import { loadStep } from '../flows/load-flow.js';
import { CHOOSE_TRIGGER_FIRST, chosenTrigger, makeTestWithItem, type TestedStep } from './test-step.js';

/**
 * How often a wait looks for a run the trigger started. Every process stores what its webhooks,
 * listeners and polls catch, so looking at the records sees events that reached any process; a
 * look is one indexed query, and nothing is held between looks.
 */
export const TEST_EVENT_LOOK_MS = 300;
/** How often a wait polls an unpublished flow's polling trigger itself (it is not scheduled). */
export const TEST_EVENT_POLL_MS = 5000;

/** What ends a wait with nothing: its time-out (at most the instance's), or the client that hung up. */
export interface WaitLimits {
  readonly timeoutMs: number | undefined;
  readonly signal: AbortSignal;
}

/** The event's item, or undefined when the wait ended without one. */
type Caught = Result<{ readonly data: unknown } | undefined, DomainError>;

type Deps = Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'apps' | 'runner'>;

/** Resolves after `ms`, or at once when the signal aborts. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * The next run the trigger step starts after now (a webhook call, a listener's message, a published
 * flow's poll): the newest record of the step is noted first, and any newer successful one is it.
 */
const nextRecorded = async (deps: Deps, triggerId: string, signal: AbortSignal): Promise<Caught> => {
  const before = (await deps.repos.executionSteps.latest(triggerId))?.id ?? null;
  while (!signal.aborted) {
    await pause(TEST_EVENT_LOOK_MS, signal);
    if (signal.aborted) break;
    const newest = await deps.repos.executionSteps.latest(triggerId);
    if (newest && newest.id !== before && newest.status === 'success') return ok({ data: newest.dataOut });
  }
  return ok(undefined);
};

/**
 * An unpublished flow's listener trigger has no subscription: one is opened here for the wait and
 * closed at its first message (which the app then acknowledges to its server: the test took it).
 */
const nextMessage = async (deps: Deps, flowId: string, trigger: Step, signal: AbortSignal): Promise<Caught> => {
  const connection = await stepConnection(deps, trigger);
  if (!connection.ok) return err(invalidInput({ general: [connection.reason] }));
  const closing = new AbortController();
  const close = () => closing.abort();
  signal.addEventListener('abort', close, { once: true });
  let caught: { data: unknown } | undefined;
  try {
    const outcome = await deps.runner.listen({
      appKey: trigger.appKey ?? '',
      key: trigger.key ?? '',
      parameters: trigger.parameters,
      connection: connection.value,
      store: flowStore(deps.repos, flowId, deps.clock),
      signal: closing.signal,
      async emit(message) {
        caught ??= { data: message.data };
        closing.abort();
      },
      subscribed() {},
    });
    if (caught) return ok(caught);
    if (outcome.kind === 'failure' && !signal.aborted) return err(appCallFailed(outcome.failure.message));
    return ok(undefined);
  } finally {
    signal.removeEventListener('abort', close);
  }
};

/** What tells a polled item from the others: its id, or its content when it has none. */
const itemKey = (item: { readonly id?: string; readonly data: unknown }) =>
  item.id ?? `content:${JSON.stringify(item.data) ?? ''}`;

/**
 * An unpublished flow's polling trigger is not scheduled: the wait polls it, learning what exists
 * first (as a published flow's first poll does), and the first item a later poll finds is the event.
 */
const nextPolled = async (deps: Deps, flowId: string, trigger: Step, signal: AbortSignal): Promise<Caught> => {
  const first = await runFlowTrigger(deps, flowId, trigger, null);
  if (first.kind === 'failure') return err(appCallFailed(first.failure.message));
  const known = new Set(first.items.map(itemKey));
  while (!signal.aborted) {
    await pause(TEST_EVENT_POLL_MS, signal);
    if (signal.aborted) break;
    const polled = await runFlowTrigger(deps, flowId, trigger, null);
    if (polled.kind === 'failure') return err(appCallFailed(polled.failure.message));
    const fresh = polled.items.find((item) => !known.has(itemKey(item)));
    if (fresh) return ok({ data: fresh.data });
  }
  return ok(undefined);
};

/**
 * "Listen for a test event": waits for the next event of the flow's trigger (a request to its
 * webhook, a listener's message, a poll that finds something new), then tests the flow up to the
 * step with it, as `POST /steps/:stepId/test` does with the last one. Null: the wait ended (its
 * time-out, or the client went away) with no event. Waiting holds no database connection: it
 * sleeps between short looks.
 */
export const makeWaitForTestEvent = (deps: CoreDeps) => {
  const testWith = makeTestWithItem(deps);
  return async (actor: Actor, stepId: string, limits: WaitLimits): Promise<Result<TestedStep | null, DomainError>> => {
    const loaded = await loadStep(deps.repos, actor, stepId, 'manage');
    if (!loaded.ok) return loaded;
    const { step, flow } = loaded.value;
    const trigger = await chosenTrigger(deps, flow.id);
    if (!trigger) return err(invalidInput({ general: [CHOOSE_TRIGGER_FIRST] }));
    // Runs are started by the trigger that receives events: a published flow's is its live version's.
    const receiving = (await loadTriggered(deps, flow.id))?.trigger ?? trigger;
    const type = triggerTypeOf(deps, receiving);
    if (type !== 'webhook' && type !== 'listener' && type !== 'polling') {
      return err(invalidInput({ general: ['A schedule has no event to wait for: test the step instead.'] }));
    }
    const longest = deps.settings.engine.testEventMaxWaitMs;
    const timeoutMs = Math.min(limits.timeoutMs ?? longest, longest);
    const signal = AbortSignal.any([limits.signal, AbortSignal.timeout(timeoutMs)]);
    const caught =
      type === 'webhook' || flow.active
        ? await nextRecorded(deps, receiving.id, signal)
        : type === 'listener'
          ? await nextMessage(deps, flow.id, trigger, signal)
          : await nextPolled(deps, flow.id, trigger, signal);
    if (!caught.ok) return caught;
    if (!caught.value || limits.signal.aborted) return ok(null);
    return ok(await testWith(flow.id, trigger, step, caught.value.data));
  };
};
