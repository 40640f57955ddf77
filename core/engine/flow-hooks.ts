import type { FlowHook } from '../../ports/flow-hook-repository.js';
import type { Step } from '../domain/flow.js';
import { webhookPath } from '../domain/flow-rules.js';
import { canonical } from '../domain/flow-version.js';
import type { EngineDeps } from './deps.js';
import { flowStore } from './flow-store.js';
import { stepConnection } from './step-connection.js';

type Deps = Pick<EngineDeps, 'repos' | 'uow' | 'clock' | 'apps' | 'runner' | 'logger' | 'settings'>;

/** What a hook is registered for: the trigger, its connection and parameters, and the address. */
type HookTarget = Omit<FlowHook, 'state' | 'createdAt'>;

/** How making a flow's hook match it went: a registration the vendor refused says why. */
export type HookSync = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** The flow's public webhook address, as the Flow resource's `webhookUrl` shows it. */
export const flowWebhookUrl = (deps: Pick<EngineDeps, 'settings'>, flowId: string, trigger: Step): string =>
  `${deps.settings.engine.publicUrl.replace(/\/+$/, '')}${webhookPath(flowId, trigger, 'webhook')}`;

const targetOf = (deps: Deps, flowId: string, trigger: Step | null): HookTarget | null =>
  trigger?.appKey && trigger.key && deps.runner.registersHook(trigger.appKey, trigger.key)
    ? {
        flowId,
        appKey: trigger.appKey,
        triggerKey: trigger.key,
        connectionId: trigger.connectionId,
        parameters: trigger.parameters,
        webhookUrl: flowWebhookUrl(deps, flowId, trigger),
      }
    : null;

// Parameters come back from jsonb with their keys in another order: compared canonically.
const sameTarget = (a: HookTarget, b: HookTarget): boolean =>
  a.appKey === b.appKey &&
  a.triggerKey === b.triggerKey &&
  a.connectionId === b.connectionId &&
  a.webhookUrl === b.webhookUrl &&
  JSON.stringify(canonical(a.parameters)) === JSON.stringify(canonical(b.parameters));

/**
 * Asks the vendor to remove a hook, best effort: a vendor that fails (the hook deleted there
 * already, the service away) or a connection that can no longer be used is logged, and the
 * removal goes on, since nothing here could do better later.
 */
const unregister = async (deps: Deps, hook: FlowHook): Promise<void> => {
  const log = { flowId: hook.flowId, app: hook.appKey, trigger: hook.triggerKey };
  const connection = await stepConnection(deps, hook);
  if (!connection.ok) {
    deps.logger.warn(
      { ...log, reason: connection.reason },
      'webhook left with the vendor: its connection cannot be used',
    );
    return;
  }
  const outcome = await deps.runner.unregisterHook({
    appKey: hook.appKey,
    key: hook.triggerKey,
    parameters: hook.parameters,
    connection: connection.value,
    webhookUrl: hook.webhookUrl,
    hook: hook.state,
  });
  if (outcome.kind === 'failure')
    deps.logger.warn({ ...log, reason: outcome.failure.message }, 'the vendor did not remove the webhook');
  else deps.logger.info(log, 'webhook removed from the vendor');
};

/**
 * Makes the hook the vendor holds for a flow match its trigger (`trigger`: the one it runs when
 * published; null when it is not, or is gone). A stored hook registered for anything else (another
 * trigger, connection, parameters or address) is removed first; then an instant trigger without
 * one registers it, and what `registerHook` returned is kept. A registration that fails answers
 * why, leaving no hook stored.
 */
export const syncFlowHook = async (deps: Deps, flowId: string, trigger: Step | null): Promise<HookSync> => {
  const wanted = targetOf(deps, flowId, trigger);
  const stored = await deps.repos.flowHooks.find(flowId);
  if (stored && wanted && sameTarget(stored, wanted)) return { ok: true };
  if (stored) {
    // The row goes only after the vendor was asked: a crash in between asks again, never forgets.
    await unregister(deps, stored);
    await deps.repos.flowHooks.delete(flowId);
  }
  if (!wanted || !trigger) return { ok: true };
  const connection = await stepConnection(deps, trigger);
  if (!connection.ok) return { ok: false, reason: connection.reason };
  const outcome = await deps.runner.registerHook({
    appKey: wanted.appKey,
    key: wanted.triggerKey,
    parameters: wanted.parameters,
    connection: connection.value,
    webhookUrl: wanted.webhookUrl,
    store: flowStore(deps.repos, flowId, deps.clock),
  });
  if (outcome.kind === 'failure') return { ok: false, reason: outcome.failure.message };
  const hook: FlowHook = { ...wanted, state: outcome.hook, createdAt: deps.clock.now() };
  if (await deps.repos.flowHooks.insert(hook))
    deps.logger.info({ flowId, app: hook.appKey, trigger: hook.triggerKey }, 'webhook registered with the vendor');
  // Two publishes of the flow at once: the other's hook is stored, so this one is one too many.
  else await unregister(deps, hook);
  return { ok: true };
};

/** What a delivery's trigger sees as `ctx.hook`: the stored state, when it was registered for this trigger. */
export const hookStateFor = async (
  deps: Pick<EngineDeps, 'repos'>,
  flowId: string,
  trigger: Step,
): Promise<unknown> => {
  const stored = await deps.repos.flowHooks.find(flowId);
  return stored && stored.appKey === trigger.appKey && stored.triggerKey === trigger.key ? stored.state : null;
};
