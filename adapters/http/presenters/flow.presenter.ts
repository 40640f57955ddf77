import type { FlowView, StepView } from '../../../core/application/flows/flow-views.js';
import { type Folder, flowStatus } from '../../../core/domain/flow.js';
import type { Template } from '../../../core/domain/template.js';
import type { Answer } from '../schemas/resources.schemas.js';
import { epochMs } from './timestamp.js';

/** Flows and steps as API.md §6.7 shows them; webhook addresses are made absolute with the instance's base URL. */
export const flowPresenters = (webhookBaseUrl: string) => {
  const step = (view: StepView): Answer<'Step'> => ({
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
    createdAt: epochMs(view.createdAt),
    updatedAt: epochMs(view.updatedAt),
  });

  const flow = (view: FlowView): Answer<'Flow'> => ({
    id: view.id,
    name: view.name,
    active: view.active,
    status: flowStatus(view),
    folderId: view.folderId,
    userId: view.userId,
    publishedAt: epochMs(view.publishedAt),
    createdAt: epochMs(view.createdAt),
    updatedAt: epochMs(view.updatedAt),
    steps: view.steps.map(step),
  });

  return { step, flow };
};

export const presentFolder = (folder: Folder): Answer<'Folder'> => ({
  id: folder.id,
  name: folder.name,
  createdAt: epochMs(folder.createdAt),
  updatedAt: epochMs(folder.updatedAt),
});

export const presentTemplate = (template: Template): Answer<'Template'> => ({
  id: template.id,
  name: template.name,
  flowData: template.flowData,
  createdAt: epochMs(template.createdAt),
  updatedAt: epochMs(template.updatedAt),
});
