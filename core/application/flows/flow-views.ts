import type { AppCatalog } from '../../../ports/app-catalog.js';
import type { Repositories } from '../../../ports/repositories.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import type { Flow, Step } from '../../domain/flow.js';
import { webhookPath } from '../../domain/flow-rules.js';
import type { FlowListener, ListenerState } from '../../domain/listener.js';
import type { Page } from '../../domain/page.js';
import { err, ok, type Result } from '../../domain/result.js';
import { definitionOf } from '../../engine/step-definition.js';
import type { Billing } from '../billing/plan-and-usage.js';
import { currentStatus } from '../steps/step-status.js';

/** A step as clients see it: with its app's icon, and the address a webhook trigger listens at. */
export interface StepView extends Step {
  readonly iconUrl: string | null;
  readonly webhookPath: string | null;
}

export interface FlowView extends Flow {
  readonly steps: readonly StepView[];
  /** Active, but its owner may not run flows now (over quota). */
  readonly paused: boolean;
  /** How its listener trigger's subscription stands; null unless it is a published flow with one. */
  readonly listener: ListenerState | null;
}

/** What turns flows into views beside the repositories (which may be a transaction's). */
export interface ViewDeps {
  readonly apps: AppCatalog;
  readonly billing: Pick<Billing, 'mayRun'>;
}

/** What clients see of a listener: its state, not which process holds it. */
export const listenerState = (listener: FlowListener | undefined): ListenerState | null =>
  listener
    ? {
        status: listener.status,
        failures: listener.failures,
        lastError: listener.lastError,
        lastErrorAt: listener.lastErrorAt,
        updatedAt: listener.updatedAt,
      }
    : null;

/** Whether each owner of an active flow may run flows now, asked once per owner. */
const pausedOwners = async (
  repos: Repositories,
  billing: ViewDeps['billing'],
  flows: readonly Flow[],
): Promise<Set<string>> => {
  const owners = [...new Set(flows.filter((f) => f.active).map((f) => f.userId))];
  // Through the same repositories as the flows: inside a unit of work, the transaction's.
  const verdicts = await Promise.all(owners.map(async (id) => [id, await billing.mayRun(id, repos)] as const));
  return new Set(verdicts.filter(([, runs]) => !runs).map(([id]) => id));
};

export const stepView = (apps: AppCatalog, step: Step): StepView => ({
  ...step,
  status: currentStatus(apps, step),
  iconUrl: step.appKey === null ? null : (apps.find(step.appKey)?.iconUrl ?? null),
  webhookPath: webhookPath(step.flowId, step, definitionOf(apps, step)?.description.type),
});

/** Flows with their steps, loaded in one query for all of them. */
export const flowViews = async (repos: Repositories, deps: ViewDeps, flows: readonly Flow[]): Promise<FlowView[]> => {
  const [steps, paused, listeners] = await Promise.all([
    repos.steps.listByFlows(flows.map((f) => f.id)),
    pausedOwners(repos, deps.billing, flows),
    repos.listeners.findMany(flows.filter((f) => f.active).map((f) => f.id)),
  ]);
  const listenerOf = new Map(listeners.map((l) => [l.flowId, l]));
  return flows.map((flow) => ({
    ...flow,
    steps: steps.filter((s) => s.flowId === flow.id).map((s) => stepView(deps.apps, s)),
    paused: flow.active && paused.has(flow.userId),
    listener: listenerState(listenerOf.get(flow.id)),
  }));
};

export const flowView = async (repos: Repositories, deps: ViewDeps, flow: Flow): Promise<FlowView> => {
  const [steps, paused, listener] = await Promise.all([
    repos.steps.listByFlow(flow.id),
    pausedOwners(repos, deps.billing, [flow]),
    flow.active ? repos.listeners.find(flow.id) : null,
  ]);
  return {
    ...flow,
    steps: steps.map((s) => stepView(deps.apps, s)),
    paused: paused.size > 0,
    listener: listenerState(listener ?? undefined),
  };
};

export const pageOfViews = async (repos: Repositories, deps: ViewDeps, page: Page<Flow>): Promise<Page<FlowView>> => ({
  ...page,
  items: await flowViews(repos, deps, page.items),
});

/** The flow as it is now, within the unit of work that just changed it. */
export const reloadView = async (
  repos: Repositories,
  deps: ViewDeps,
  flowId: string,
): Promise<Result<FlowView, DomainError>> => {
  const flow = await repos.flows.findById(flowId);
  return flow ? ok(await flowView(repos, deps, flow)) : err(notFound('Flow'));
};
