/** The resources of docs/api.md as the console reads them. */

/** A moment as the API gives every one: milliseconds since the epoch (docs/api.md, Timestamps). */
export type Timestamp = number;

export interface User {
  id: string;
  email: string;
  fullName: string;
  status: 'active' | 'invited';
  roleId: string;
  role: { id: string; name: string; isAdmin: boolean } | null;
  createdAt: Timestamp;
}

export interface ServiceInfo {
  installationCompleted: boolean;
  version: string;
  isEnterprise: boolean;
  registrationEnabled: boolean;
  docsUrl: string | null;
}

export interface Step {
  id: string;
  flowId: string;
  type: 'trigger' | 'action';
  appKey: string | null;
  key: string | null;
  name: string | null;
  position: number;
  status: 'incomplete' | 'completed';
  parameters: Record<string, unknown>;
  connectionId: string | null;
  webhookUrl: string | null;
  updatedAt: Timestamp;
  iconUrl: string | null;
  lastExecutionStep?: ExecutionStep | null;
}

export interface Flow {
  id: string;
  name: string;
  active: boolean;
  status: 'draft' | 'published' | 'paused';
  folderId: string | null;
  updatedAt: Timestamp;
  createdAt: Timestamp;
  steps: Step[];
}

export interface Folder {
  id: string;
  name: string;
}

export interface App {
  key: string;
  name: string;
  description: string;
  primaryColor: string;
  authKind: 'none' | 'fields' | 'oauth2';
  supportsConnections: boolean;
  triggerCount: number;
  actionCount: number;
}

export interface ArgumentOption {
  label: string;
  value: string | number | boolean;
}

export interface Argument {
  key: string;
  label: string;
  type: 'string' | 'number' | 'boolean' | 'dropdown' | 'keyValueList' | 'code' | 'json';
  required: boolean;
  description?: string;
  placeholder?: string;
  defaultValue?: unknown;
  secret?: boolean;
  acceptsVariables?: boolean;
  options?: ArgumentOption[];
  dynamicData?: { key: string; dependsOn: string[] };
  language?: string;
}

export interface StepDefinition {
  key: string;
  name: string;
  description: string;
  type?: 'webhook' | 'polling' | 'schedule';
  arguments: Argument[];
  dynamicFieldsKey?: string;
}

export interface Connection {
  id: string;
  key: string;
  formattedData: { screenName?: string | null };
  verified: boolean;
  createdAt: Timestamp;
}

export interface AppAuth {
  kind: 'none' | 'fields' | 'oauth2';
  fields: Argument[];
}

export interface ExecutionStep {
  id: string;
  executionId: string;
  stepId: string;
  status: 'success' | 'failure';
  dataIn: unknown;
  dataOut: unknown;
  errorDetails: unknown;
  createdAt: Timestamp;
  /** The step as it is now, in an execution's records (null once deleted); a step's own record has none. */
  step?: Step | null;
}

export interface Execution {
  id: string;
  flowId: string;
  status: 'running' | 'waiting' | 'success' | 'failure';
  testRun: boolean;
  createdAt: Timestamp;
  finishedAt: Timestamp | null;
  /** The flow as it is now, with its steps. */
  flow: Flow;
  steps?: ExecutionStep[];
}
