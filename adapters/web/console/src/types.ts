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

/** A step's place in a flow's tree: `paths` holds branches, a `branch` or a `loop` holds steps. */
export type StructuralType = 'single' | 'paths' | 'branch' | 'loop';

/** The filter app's operators, which a branch's conditions use too. */
export const CONDITION_OPERATORS = [
  'equal',
  'not_equal',
  'greater_than',
  'less_than',
  'greater_than_or_equal',
  'less_than_or_equal',
  'contains',
  'not_contains',
  'is_empty',
  'is_not_empty',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

export interface Condition {
  key: string;
  operator: string;
  value: string;
}

/** A branch is taken when every condition of any group holds; none at all: the fallback ("Otherwise"). */
export type BranchConditions = { and: Condition[] }[];

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
  /** Absent from servers before flows were trees: read as `single` at the top level. */
  structuralType?: StructuralType;
  parentStepId?: string | null;
  /** A branch's; null for every other step. */
  branchConditions?: BranchConditions | null;
}

/** Which version of a flow: the one it runs, or the one a run ran. */
export interface VersionRef {
  id: string;
  number: number;
}

/**
 * A flow as its draft is: its name and steps are what users edit; the engine runs its
 * `publishedVersion`. Every change of the draft sends `draftRevision` back as `If-Match`.
 */
export interface Flow {
  id: string;
  name: string;
  active: boolean;
  status: 'draft' | 'published' | 'paused';
  folderId: string | null;
  publishedAt: Timestamp | null;
  publishedVersion: VersionRef | null;
  hasDraftChanges: boolean;
  draftRevision: number;
  updatedAt: Timestamp;
  createdAt: Timestamp;
  /** A published flow's listener trigger (a queue, a topic, a mailbox); null for other flows. */
  listener?: ListenerState | null;
  steps: Step[];
}

/** Whether a listener trigger's subscription is open, and its last failure. */
export interface ListenerState {
  status: 'starting' | 'listening' | 'failing';
  failures: number;
  lastError: string | null;
  lastErrorAt: Timestamp | null;
  updatedAt: Timestamp;
}

/** A published version of a flow, as its history lists it. */
export interface FlowVersion extends VersionRef {
  flowId: string;
  message: string | null;
  /** The id of the user who published it; null once that user is gone. */
  publishedBy: string | null;
  createdAt: Timestamp;
}

/** A version with its name and steps as they were published. */
export interface FlowVersionDetail extends FlowVersion {
  name: string;
  steps: Pick<
    Step,
    'id' | 'type' | 'appKey' | 'key' | 'name' | 'position' | 'status' | 'parameters' | 'connectionId'
  >[];
}

export interface StepChange {
  stepId: string;
  label: string;
  /** `appKey`, `key`, `connectionId`, `parameters.<key>`, ... */
  fields: string[];
}

/** What changed from one version (or the draft: ids and numbers null) to another. */
export interface VersionComparison {
  from: { versionId: string | null; number: number | null };
  to: { versionId: string | null; number: number | null };
  changes: {
    name: { from: string; to: string } | null;
    added: StepChange[];
    removed: StepChange[];
    changed: StepChange[];
  };
}

export interface Folder {
  id: string;
  name: string;
}

export interface App {
  key: string;
  name: string;
  description: string;
  /** Its SVG icon, served by the server at the root (`/apps/<key>/assets/favicon.svg`). */
  iconUrl: string;
  primaryColor: string;
  /** Category keys (`APP_CATEGORY_LABELS`); an app may sit in several, or in none. */
  categories: string[];
  authKind: 'none' | 'fields' | 'oauth2';
  supportsConnections: boolean;
  connectionOptional: boolean;
  triggerCount: number;
  actionCount: number;
  /** Present only when the app has any. */
  capabilities?: AppCapability[];
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
  multiple?: boolean;
  language?: string;
}

export interface StepDefinition {
  key: string;
  name: string;
  description: string;
  type?: 'webhook' | 'polling' | 'schedule' | 'listener';
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
  /** Where the step ran: its parent (a branch or a loop), the branch it is in, its innermost loop index. */
  parentStepId?: string | null;
  branchId?: string | null;
  iteration?: number | null;
  /** The loop iterations it ran in, `<loopId>:<index>/...`, outermost first; '' outside loops. */
  scope?: string;
  createdAt: Timestamp;
  /** The step as it is now, in an execution's records (null once deleted); a step's own record has none. */
  step?: Step | null;
}

export interface Execution {
  id: string;
  flowId: string;
  status: 'running' | 'waiting' | 'success' | 'failure';
  testRun: boolean;
  /** The version the run ran; null for a test run, which runs the draft. */
  flowVersion: VersionRef | null;
  /** The failed execution this one retries. */
  retryOf: string | null;
  /** The run whose step called this one (the flows app's "Call a flow"). */
  parentExecutionId?: string | null;
  /** When a waiting run goes on at the latest. */
  resumeAt?: Timestamp | null;
  createdAt: Timestamp;
  finishedAt: Timestamp | null;
  /** The flow as it is now, with its steps. */
  flow: Flow;
  steps?: ExecutionStep[];
}

/** A form field's kinds, as Automatisch names them; `array` holds rows of sub-fields. */
export type FormFieldType = 'array' | 'checkbox' | 'date' | 'datetime' | 'dropdown' | 'multiline' | 'string' | 'time';
export type ValidationFormat = '' | 'alphanumeric' | 'custom' | 'email' | 'number' | 'tel' | 'url';

export interface FormField {
  name: string;
  key: string;
  type: FormFieldType;
  options?: { value: string }[];
  required?: boolean;
  readonly?: boolean;
  validationFormat?: ValidationFormat | null;
  validationPattern?: string;
  validationHelperText?: string;
  /** An array field's columns. */
  fields?: FormField[];
  minItems?: number;
  maxItems?: number;
}

/** A form whose public page (`/forms/:id`) starts the flows that listen for it. */
export interface Form {
  id: string;
  name: string;
  displayName: string | null;
  description: string | null;
  responseMessage: string | null;
  submitButtonText: string | null;
  fields: FormField[];
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** What an app offers besides its steps: a model to ask (`languageModel`), tools to call (`toolbox`). */
export type AppCapability = 'languageModel' | 'toolbox';

export interface AgentLimits {
  maxIterations: number;
  maxTokens: number;
  timeoutSeconds: number;
}

export interface AgentMemory {
  enabled: boolean;
  maxMessages: number;
}

/** A model, instructions and tools, run by the agents app's "Run agent" step or tested from the console. */
export interface Agent {
  id: string;
  name: string;
  description: string | null;
  instructions: string | null;
  /** A connection of a language-model app; null until chosen. */
  connectionId: string | null;
  model: string | null;
  temperature: number | null;
  limits: AgentLimits;
  memory: AgentMemory;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export type AgentToolType = 'app' | 'flow' | 'mcp';

/** What an agent may call: an app's actions, a flow, or an MCP server's tools; `askFirst` waits for a person. */
export interface AgentTool {
  id: string;
  agentId: string;
  type: AgentToolType;
  appKey: string | null;
  connectionId: string | null;
  actions: string[];
  flowId: string | null;
  askFirst: string[];
  createdAt: Timestamp;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface AgentExecution {
  id: string;
  agentId: string;
  executionId: string | null;
  stepKey: string | null;
  prompt: string;
  output: string | null;
  status: 'running' | 'waiting' | 'completed' | 'failed';
  usage?: TokenUsage;
  createdAt: Timestamp;
  finishedAt: Timestamp | null;
  /** In one execution's answer: its model and tool calls. */
  calls?: StepCall[];
}

export type StepCallStatus = 'running' | 'waiting' | 'success' | 'failure' | 'denied';

/** A call a step made on its way: an agent's model call or tool call. */
export interface StepCall {
  id: string;
  executionId: string;
  stepKey: string;
  stepId: string;
  seq: number;
  kind: 'model' | 'tool';
  /** The model's name, or the tool's. */
  name: string;
  input: unknown;
  output: unknown;
  status: StepCallStatus;
  error: string | null;
  usage: TokenUsage | null;
  startedAt: Timestamp;
  finishedAt: Timestamp | null;
}

/** Conveyor as an MCP server: tools that MCP clients call at `serverUrl`. */
export interface McpServer {
  id: string;
  name: string;
  /** Only in the answers that make a token (creating, rotating): shown once. */
  token?: string;
  serverUrl?: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface McpTool {
  id: string;
  mcpServerId: string;
  type: 'app' | 'flow';
  appKey: string | null;
  connectionId: string | null;
  /** The action's key; for a flow, the tool's name as its trigger named it. */
  action: string;
  flowId: string | null;
  createdAt: Timestamp;
}

export interface McpToolExecution {
  id: string;
  mcpToolId: string;
  /** `running`: a flow tool's run outlived the call's time limit and goes on. */
  status: 'success' | 'failure' | 'running';
  dataIn: unknown;
  dataOut: unknown;
  errorDetails: unknown;
  /** The run a flow tool started. */
  executionId?: string | null;
  createdAt: Timestamp;
}

/** A template shipped with Conveyor (`GET /templates/built-in`). */
export interface BuiltInTemplate {
  key: string;
  name: string;
  description: string;
  apps: { key: string; name: string; iconUrl: string }[];
}
