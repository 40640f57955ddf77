import type { ConnectionUse } from '../../ports/app-catalog.js';
import { retryDelayMs } from '../domain/backoff.js';
import { errorMessage } from '../domain/errors.js';
import type { FlowListener } from '../domain/listener.js';
import { LISTENER_BACKOFF, LISTENER_LEASE_MS } from '../domain/listener.js';
import type { EngineDeps } from './deps.js';
import { flowStore } from './flow-store.js';
import { loadTriggered, type RunAllowance, triggerTypeOf } from './flow-triggers.js';
import { makeIntakeGate } from './intake-gate.js';
import { type ListeningFlow, makeMessageIntake } from './listener-intake.js';
import { stepConnection } from './step-connection.js';

/** At most this many subscriptions are taken per look, so that several workers share them out. */
const CLAIM_PER_TICK = 10;
/** How long stopping waits for the apps to close their subscriptions. */
const CLOSE_TIMEOUT_MS = 5_000;

type Deps = Pick<
  EngineDeps,
  'repos' | 'uow' | 'clock' | 'ids' | 'apps' | 'runner' | 'queue' | 'logger' | 'random' | 'settings'
> & { readonly billing: RunAllowance };

interface Open {
  readonly revision: number;
  readonly abort: AbortController;
  readonly ended: Promise<void>;
}

/**
 * One process's side of the listener triggers: it holds the subscriptions of the flows it leased,
 * opening, reopening and closing them as the flows change. `tick` (every second or so) renews its
 * leases, closes what it no longer holds or what changed, takes free subscriptions (those of a
 * process that died, once its lease ran out) and opens those due.
 */
export interface ListenerSupervisor {
  tick(): Promise<void>;
  /** The flows whose subscriptions are open here. */
  openFlows(): string[];
  /** Closes every subscription and lets go of the leases, so another process takes them over at once. */
  stop(): Promise<void>;
}

export const makeListenerSupervisor = (deps: Deps, holder: string): ListenerSupervisor => {
  const { repos, clock, logger } = deps;
  const open = new Map<string, Open>();
  /** Failures in a row and when the next attempt is due, by flow. */
  const retry = new Map<string, { failures: number; at: number }>();
  const gate = makeIntakeGate({
    executions: repos.executions,
    clock,
    logger,
    what: 'listener intake',
    limits: {
      flowRatePerSecond: 0,
      flowBurst: 0,
      maxPending: 0,
      maxBacklog: 0,
      maxFlowBacklog: deps.settings.engine.listenerMaxBacklog,
    },
  });
  let lastRenewal = clock.now().getTime();
  let stopping = false;

  const report = (flowId: string, status: 'listening' | 'failing', failures: number, lastError?: string) =>
    repos.listeners
      .report(flowId, holder, { status, failures, ...(lastError !== undefined && { lastError }), now: clock.now() })
      .catch((error: unknown) =>
        logger.warn({ flowId, err: errorMessage(error) }, 'could not record a listener state'),
      );

  const failed = async (flowId: string, reason: string) => {
    const failures = (retry.get(flowId)?.failures ?? 0) + 1;
    const delay = retryDelayMs(LISTENER_BACKOFF, failures, deps.random) ?? LISTENER_BACKOFF.maxDelayMs;
    retry.set(flowId, { failures, at: clock.now().getTime() + delay });
    logger.warn({ flowId, failures, reason, retryInMs: delay }, 'listener failed; it will be opened again');
    await report(flowId, 'failing', failures, reason);
  };

  /** What the subscription is opened with (the flow, its app's trigger, the connection), or why it cannot be. */
  const prepare = async (
    flowId: string,
  ): Promise<
    | { ok: true; listening: ListeningFlow; appKey: string; key: string; connection: ConnectionUse | null }
    | { ok: false; reason: string }
  > => {
    const loaded = await loadTriggered(deps, flowId);
    const { appKey, key } = loaded?.trigger ?? {};
    if (!loaded?.flow.active || !appKey || !key) return { ok: false, reason: 'The flow is not published.' };
    if (triggerTypeOf(deps, loaded.trigger) !== 'listener')
      return { ok: false, reason: 'The flow’s trigger is not a listener.' };
    if (!(await deps.billing.mayRun(loaded.flow.userId)))
      return { ok: false, reason: 'The owner’s plan allows no more runs this period.' };
    const connection = await stepConnection(deps, loaded.trigger);
    if (!connection.ok) return connection;
    const listening = { flowId, trigger: loaded.trigger, version: loaded.version };
    return { ok: true, listening, appKey, key, connection: connection.value };
  };

  const openSubscription = async (listener: FlowListener) => {
    const { flowId, revision } = listener;
    const abort = new AbortController();
    let resolveEnded = () => {};
    const entry: Open = { revision, abort, ended: new Promise<void>((resolve) => (resolveEnded = resolve)) };
    open.set(flowId, entry);
    try {
      const prepared = await prepare(flowId);
      if (!prepared.ok) {
        await failed(flowId, prepared.reason);
        return;
      }
      // Closed while it was being prepared: an app handed an aborted signal might never return.
      if (abort.signal.aborted) return;
      let subscribed = false;
      const outcome = await deps.runner.listen({
        appKey: prepared.appKey,
        key: prepared.key,
        parameters: prepared.listening.trigger.parameters,
        connection: prepared.connection,
        store: flowStore(repos, flowId, clock),
        signal: abort.signal,
        emit: makeMessageIntake(deps, gate, prepared.listening, abort.signal),
        subscribed() {
          if (subscribed) return;
          subscribed = true;
          retry.delete(flowId);
          logger.info({ flowId }, 'listener subscribed');
          void report(flowId, 'listening', 0);
        },
      });
      if (abort.signal.aborted) return;
      const reason =
        outcome.kind === 'failure' ? outcome.failure.message : 'The subscription ended without being asked to.';
      await failed(flowId, reason);
    } catch (error) {
      await failed(flowId, errorMessage(error));
    } finally {
      if (open.get(flowId) === entry) open.delete(flowId);
      resolveEnded();
    }
  };

  const close = async (flowId: string) => {
    const entry = open.get(flowId);
    if (!entry) return;
    entry.abort.abort();
    await entry.ended;
  };

  const closeAll = async () => {
    const entries = [...open.values()];
    for (const entry of entries) entry.abort.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(entries.map((entry) => entry.ended)),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
  };

  const due = (flowId: string) => (retry.get(flowId)?.at ?? 0) <= clock.now().getTime();

  return {
    async tick() {
      if (stopping) return;
      const now = clock.now();
      let held: FlowListener[];
      try {
        held = await repos.listeners.renew(holder, new Date(now.getTime() + LISTENER_LEASE_MS));
        lastRenewal = now.getTime();
      } catch (error) {
        // Without a renewal, another process takes the subscriptions over when the leases end:
        // close them before that, so that two never listen at once.
        if (now.getTime() - lastRenewal > LISTENER_LEASE_MS / 2 && open.size > 0) {
          logger.warn({ err: errorMessage(error) }, 'could not renew listener leases; closing the subscriptions');
          await closeAll();
        }
        throw error;
      }
      const byFlow = new Map(held.map((listener) => [listener.flowId, listener]));
      for (const [flowId, entry] of open) {
        const listener = byFlow.get(flowId);
        // Gone (unpublished, deleted, taken over) or changed (a new version, another connection).
        if (!listener || listener.revision !== entry.revision) await close(flowId);
      }
      for (const flowId of retry.keys()) if (!byFlow.has(flowId)) retry.delete(flowId);
      const claimed = await repos.listeners.claim(
        holder,
        now,
        new Date(now.getTime() + LISTENER_LEASE_MS),
        CLAIM_PER_TICK,
      );
      for (const listener of [...byFlow.values(), ...claimed]) {
        if (stopping || open.has(listener.flowId) || !due(listener.flowId)) continue;
        void openSubscription(listener);
      }
    },

    openFlows: () => [...open.keys()],

    async stop() {
      stopping = true;
      const flowIds = [...new Set([...open.keys(), ...retry.keys()])];
      await closeAll();
      await repos.listeners.release(holder, flowIds).catch((error: unknown) => {
        logger.warn({ err: errorMessage(error) }, 'could not release listener leases; they end by themselves');
      });
    },
  };
};
