import type { AppCatalog } from '../../../ports/app-catalog.js';
import type { Repositories } from '../../../ports/repositories.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import type { Flow, Step } from '../../domain/flow.js';
import { webhookPath } from '../../domain/flow-rules.js';
import type { Page } from '../../domain/page.js';
import { err, ok, type Result } from '../../domain/result.js';
import { currentStatus, definitionOf } from '../steps/step-status.js';

/** A step as clients see it: with its app's icon, and the address a webhook trigger listens at. */
export interface StepView extends Step {
  readonly iconUrl: string | null;
  readonly webhookPath: string | null;
}

export interface FlowView extends Flow {
  readonly steps: readonly StepView[];
}

export const stepView = (apps: AppCatalog, step: Step): StepView => ({
  ...step,
  status: currentStatus(apps, step),
  iconUrl: step.appKey === null ? null : (apps.find(step.appKey)?.iconUrl ?? null),
  webhookPath: webhookPath(step.flowId, step, definitionOf(apps, step)?.description.type),
});

/** Flows with their steps, loaded in one query for all of them. */
export const flowViews = async (repos: Repositories, apps: AppCatalog, flows: readonly Flow[]): Promise<FlowView[]> => {
  const steps = await repos.steps.listByFlows(flows.map((f) => f.id));
  return flows.map((flow) => ({
    ...flow,
    steps: steps.filter((s) => s.flowId === flow.id).map((s) => stepView(apps, s)),
  }));
};

export const flowView = async (repos: Repositories, apps: AppCatalog, flow: Flow): Promise<FlowView> => ({
  ...flow,
  steps: (await repos.steps.listByFlow(flow.id)).map((s) => stepView(apps, s)),
});

export const pageOfViews = async (
  repos: Repositories,
  apps: AppCatalog,
  page: Page<Flow>,
): Promise<Page<FlowView>> => ({ ...page, items: await flowViews(repos, apps, page.items) });

/** The flow as it is now, within the unit of work that just changed it. */
export const reloadView = async (
  repos: Repositories,
  apps: AppCatalog,
  flowId: string,
): Promise<Result<FlowView, DomainError>> => {
  const flow = await repos.flows.findById(flowId);
  return flow ? ok(await flowView(repos, apps, flow)) : err(notFound('Flow'));
};
