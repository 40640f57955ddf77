import type { FlowView, StepView } from '../../../core/application/flows/flow-views.js';
import { type Folder, flowStatus } from '../../../core/domain/flow.js';
import type { Template } from '../../../core/domain/template.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** Flows and steps as API.md §6.7 shows them; webhook addresses are made absolute with the instance's base URL. */
export const flowPresenters = (webhookBaseUrl: string) => {
  const step = (view: StepView) => ({
    id: view.id,
    flowId: view.flowId,
    type: view.type,
    appKey: view.appKey,
    key: view.key,
    name: view.name,
    position: view.position,
    status: view.status,
    parameters: view.parameters,
    connectionId: view.connectionId,
    appVersion: view.appVersion,
    continueOnFailure: view.continueOnFailure,
    webhookUrl: view.webhookPath === null ? null : `${webhookBaseUrl}${view.webhookPath}`,
    iconUrl: view.iconUrl,
    createdAt: view.createdAt.toISOString(),
    updatedAt: view.updatedAt.toISOString(),
  });

  const flow = (view: FlowView) => ({
    id: view.id,
    name: view.name,
    active: view.active,
    status: flowStatus(view),
    folderId: view.folderId,
    userId: view.userId,
    publishedAt: iso(view.publishedAt),
    createdAt: view.createdAt.toISOString(),
    updatedAt: view.updatedAt.toISOString(),
    steps: view.steps.map(step),
  });

  return { step, flow };
};

export const presentFolder = (folder: Folder) => ({
  id: folder.id,
  name: folder.name,
  createdAt: folder.createdAt.toISOString(),
  updatedAt: folder.updatedAt.toISOString(),
});

export const presentTemplate = (template: Template) => ({
  id: template.id,
  name: template.name,
  flowData: template.flowData,
  createdAt: template.createdAt.toISOString(),
  updatedAt: template.updatedAt.toISOString(),
});
