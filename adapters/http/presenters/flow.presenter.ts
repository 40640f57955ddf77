import type { Comparison } from '../../../core/application/flows/flow-versions.js';
import type { FlowView, StepView } from '../../../core/application/flows/flow-views.js';
import type { BuiltInTemplateView } from '../../../core/application/templates/built-in-templates.js';
import { type Folder, flowStatus } from '../../../core/domain/flow.js';
import type { FlowVersion, FlowVersionSummary } from '../../../core/domain/flow-version.js';
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
    structuralType: view.structuralType,
    parentStepId: view.parentStepId,
    branchConditions: view.branchConditions,
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
    publishedVersion: view.publishedVersion,
    hasDraftChanges: view.hasDraftChanges,
    draftRevision: view.draftRevision,
    createdAt: epochMs(view.createdAt),
    updatedAt: epochMs(view.updatedAt),
    listener: view.listener && {
      status: view.listener.status,
      failures: view.listener.failures,
      lastError: view.listener.lastError,
      lastErrorAt: epochMs(view.listener.lastErrorAt),
      updatedAt: epochMs(view.listener.updatedAt),
    },
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

export const presentBuiltInTemplate = (template: BuiltInTemplateView): Answer<'BuiltInTemplate'> => ({
  key: template.key,
  name: template.name,
  description: template.description,
  apps: template.apps.map((app) => ({ key: app.key, name: app.name, iconUrl: app.iconUrl })),
  flowData: template.flowData,
});

export const presentVersion = (version: FlowVersionSummary): Answer<'FlowVersion'> => ({
  id: version.id,
  number: version.number,
  flowId: version.flowId,
  message: version.message,
  publishedBy: version.publishedBy,
  createdAt: epochMs(version.createdAt),
});

export const presentVersionDetail = (version: FlowVersion): Answer<'FlowVersionDetail'> => ({
  ...presentVersion(version),
  name: version.name,
  steps: version.steps.map((s) => ({
    id: s.id,
    type: s.type,
    appKey: s.appKey,
    key: s.key,
    name: s.name,
    position: s.position,
    status: s.status,
    parameters: s.parameters,
    connectionId: s.connectionId,
    appVersion: s.appVersion,
    continueOnFailure: s.continueOnFailure,
    structuralType: s.structuralType,
    parentStepId: s.parentStepId,
    branchConditions: s.branchConditions,
  })),
});

export const presentComparison = (comparison: Comparison): Answer<'VersionComparison'> => comparison;
