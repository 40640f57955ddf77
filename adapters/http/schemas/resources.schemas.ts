import * as v from 'valibot';
import { AGENT_TOOL_TYPES } from '../../../core/domain/agent.js';
import { APP_CAPABILITIES, APP_CATEGORIES } from '../../../core/domain/app.js';
import { SUBSCRIPTION_STATUSES } from '../../../core/domain/billing.js';
import { FORM_FIELD_TYPES, SUBFIELD_TYPES, VALIDATION_FORMATS } from '../../../core/domain/form.js';
import { SAML_SIGNATURE_ALGORITHMS } from '../../../core/domain/saml.js';

/**
 * What the routes answer, as `data` of the success envelope: the presenters are typed by these
 * schemas (so a presenter cannot drift from them without the compiler saying so), the OpenAPI
 * document shows them as `components.schemas` (by the names of `RESOURCE_SCHEMAS`), and
 * test/http/openapi.test.ts parses real answers with them. Objects are open: a client must accept
 * a field it does not know.
 */

/** docs/api.md, "Timestamps": what Automatisch's serializers give and its web client reads. */
const Timestamp = v.pipe(
  v.number(),
  v.integer(),
  v.metadata({
    format: 'int64',
    description: 'Milliseconds since the Unix epoch (UTC)',
    examples: [1795341600000],
  }),
);
const Moment = v.nullable(Timestamp);
const Id = v.string();
const Text = v.nullable(v.string());
const Stamps = { createdAt: Timestamp, updatedAt: Timestamp };

const Permission = v.object({ action: v.string(), subject: v.string(), conditions: v.array(v.string()) });

const Role = v.object({ id: Id, name: v.string(), description: Text, isAdmin: v.boolean(), ...Stamps });
const RoleWithPermissions = v.object({ ...Role.entries, permissions: v.array(Permission) });

const User = v.object({
  id: Id,
  email: v.string(),
  fullName: v.string(),
  status: v.picklist(['active', 'invited']),
  roleId: Id,
  role: Role,
  permissions: v.array(Permission),
  ...Stamps,
});
const InvitedUser = v.object({ ...User.entries, acceptInvitationUrl: v.string() });

const ApiToken = v.object({
  id: Id,
  token: v.pipe(v.string(), v.description('Masked: the first and last four characters')),
  userId: Id,
  createdAt: Timestamp,
});
const NewApiToken = v.object({
  id: Id,
  token: v.pipe(v.string(), v.description('The whole token, shown this once')),
  createdAt: Timestamp,
});

const License = v.object({ id: Text, name: Text, expireAt: Moment, verified: v.boolean() });

const Connection = v.object({
  id: Id,
  key: v.string(),
  appAuthClientId: Text,
  formattedData: v.object({ screenName: Text }),
  verified: v.boolean(),
  ...Stamps,
});

const AppConfig = v.object({
  key: v.string(),
  disabled: v.boolean(),
  useOnlyPredefinedAuthClients: v.boolean(),
  ...Stamps,
});

const OAuthClient = v.object({ id: Id, appKey: v.string(), name: v.string(), active: v.boolean(), ...Stamps });

const Count = v.pipe(v.number(), v.integer());

/** An app of the catalogue, without its steps (`/apps/:appKey/triggers` and `/actions` list them). */
const App = v.object({
  key: v.string(),
  name: v.string(),
  description: v.string(),
  iconUrl: v.pipe(v.string(), v.description('Where its SVG icon is served: `/apps/<key>/assets/favicon.svg`')),
  primaryColor: v.string(),
  categories: v.pipe(
    v.array(v.picklist(APP_CATEGORIES)),
    v.description('Where the app picker shows it; an app may sit in several, or in none'),
  ),
  version: Count,
  authKind: v.picklist(['none', 'fields', 'oauth2']),
  supportsConnections: v.boolean(),
  connectionOptional: v.pipe(
    v.boolean(),
    v.description('Its steps take a connection but are complete without one: the connection only adds to them'),
  ),
  triggerCount: Count,
  actionCount: Count,
  capabilities: v.pipe(
    v.array(v.picklist(APP_CAPABILITIES)),
    v.description(
      'What it offers besides its steps: `languageModel`, a model agents and AI steps ask; `toolbox`, tools agents call',
    ),
  ),
});

/** An app the caller uses, with how many of their connections and flows use it. */
const UserApp = v.object({
  key: v.string(),
  name: v.string(),
  iconUrl: v.string(),
  connectionCount: Count,
  flowCount: Count,
});

/** A branch's conditions: the branch is taken when every condition of any group holds; empty, the fallback. */
const BranchConditions = v.array(
  v.object({ and: v.array(v.object({ key: v.string(), operator: v.string(), value: v.string() })) }),
);

/** A step as a version holds it; a flow's step adds where it lives and when it was written. */
const VersionStep = v.object({
  id: Id,
  type: v.picklist(['trigger', 'action']),
  appKey: Text,
  key: Text,
  name: Text,
  position: v.pipe(v.number(), v.integer()),
  status: v.picklist(['incomplete', 'completed']),
  parameters: v.record(v.string(), v.unknown()),
  connectionId: Text,
  appVersion: v.nullable(v.pipe(v.number(), v.integer())),
  continueOnFailure: v.boolean(),
  structuralType: v.pipe(
    v.picklist(['single', 'paths', 'branch', 'loop']),
    v.description('Where it sits in the tree: a paths step holds branches, a branch or a loop holds steps'),
  ),
  parentStepId: v.pipe(
    v.nullable(Id),
    v.description('The paths, branch or loop step it sits in; null at the top level'),
  ),
  branchConditions: v.pipe(v.nullable(BranchConditions), v.description("A branch's conditions; null for other steps")),
});

const Step = v.object({
  ...VersionStep.entries,
  flowId: Id,
  webhookUrl: Text,
  iconUrl: Text,
  ...Stamps,
});

/** Which version of a flow: the one it runs, or the one a run ran. */
const VersionRef = v.object({ id: Id, number: v.pipe(v.number(), v.integer()) });

/** A published flow's listener trigger: whether its subscription is open, and its last failure. */
const ListenerState = v.object({
  status: v.pipe(
    v.picklist(['starting', 'listening', 'failing']),
    v.description(
      'starting until a worker opens the subscription; failing after it failed to open or broke (it is opened again with backoff)',
    ),
  ),
  failures: v.pipe(v.number(), v.integer(), v.description('Failures in a row since it last listened')),
  lastError: v.pipe(v.nullable(v.string()), v.description('Why it last failed; kept after it recovers')),
  lastErrorAt: Moment,
  updatedAt: Moment,
});

const Flow = v.object({
  id: Id,
  name: v.string(),
  active: v.boolean(),
  status: v.picklist(['draft', 'published', 'paused']),
  folderId: Text,
  userId: Id,
  publishedAt: Moment,
  publishedVersion: v.nullable(VersionRef),
  hasDraftChanges: v.boolean(),
  draftRevision: v.pipe(
    v.number(),
    v.integer(),
    v.description("The draft's revision: send it as `If-Match` with a change of the draft (also the `ETag`)"),
  ),
  ...Stamps,
  listener: v.pipe(
    v.nullable(ListenerState),
    v.description("The subscription of a published flow's listener trigger; null for other flows"),
  ),
  steps: v.array(Step),
});

/** A published version of a flow, without its steps (the history list). */
const FlowVersion = v.object({
  ...VersionRef.entries,
  flowId: Id,
  message: Text,
  publishedBy: v.nullable(Id),
  createdAt: Timestamp,
});

/** A value the datastore app keeps for a flow. */
const DatastoreEntry = v.object({
  key: v.string(),
  value: v.pipe(v.unknown(), v.description('What the flow stored, as JSON')),
  updatedAt: Timestamp,
});

const FlowVersionDetail = v.object({ ...FlowVersion.entries, name: v.string(), steps: v.array(VersionStep) });

const StepChange = v.object({ stepId: Id, label: v.string(), fields: v.array(v.string()) });
const ComparedSide = v.object({ versionId: v.nullable(Id), number: v.nullable(v.pipe(v.number(), v.integer())) });

/** What changed from one version (or the draft) to another. */
const VersionComparison = v.object({
  from: ComparedSide,
  to: ComparedSide,
  changes: v.object({
    name: v.nullable(v.object({ from: v.string(), to: v.string() })),
    added: v.array(StepChange),
    removed: v.array(StepChange),
    changed: v.array(StepChange),
  }),
});

const Folder = v.object({ id: Id, name: v.string(), ...Stamps });

const McpServer = v.object({ id: Id, name: v.string(), ...Stamps });
/** Only the answers of creating a server and rotating its token carry the token. */
const NewMcpServer = v.object({ ...McpServer.entries, token: v.string(), serverUrl: v.string() });
const McpTool = v.object({
  id: Id,
  mcpServerId: Id,
  type: v.picklist(['app', 'flow']),
  flowId: v.nullable(Id),
  connectionId: v.nullable(Id),
  appKey: Text,
  action: v.string(),
  ...Stamps,
});
const McpToolExecution = v.object({
  id: Id,
  mcpToolId: Id,
  status: v.picklist(['success', 'failure', 'running']),
  dataIn: v.unknown(),
  dataOut: v.unknown(),
  errorDetails: v.nullable(v.record(v.string(), v.unknown())),
  /** The run a flow tool started. */
  executionId: v.nullable(Id),
  ...Stamps,
});

const FormSubfield = v.object({
  name: v.string(),
  key: v.string(),
  type: v.picklist(SUBFIELD_TYPES),
  options: v.optional(v.array(v.object({ value: v.string() }))),
  required: v.optional(v.boolean()),
  readonly: v.optional(v.boolean()),
  validationFormat: v.optional(v.nullable(v.picklist(['', ...VALIDATION_FORMATS]))),
  validationPattern: v.optional(v.string()),
  validationHelperText: v.optional(v.string()),
});
const FormField = v.object({
  ...FormSubfield.entries,
  type: v.picklist(FORM_FIELD_TYPES),
  fields: v.optional(v.array(FormSubfield)),
  minItems: v.optional(v.number()),
  maxItems: v.optional(v.number()),
});
/** Automatisch's form: its page's title, texts and fields. */
const Form = v.object({
  id: Id,
  name: v.string(),
  displayName: Text,
  submitButtonText: Text,
  responseMessage: Text,
  description: Text,
  fields: v.array(FormField),
  ...Stamps,
});

const Agent = v.object({
  id: Id,
  name: v.string(),
  description: Text,
  instructions: Text,
  connectionId: v.nullable(Id),
  model: Text,
  temperature: v.nullable(v.number()),
  limits: v.object({ maxIterations: Count, maxTokens: Count, timeoutSeconds: Count }),
  memory: v.object({ enabled: v.boolean(), maxMessages: Count }),
  ...Stamps,
});

const AgentTool = v.object({
  id: Id,
  agentId: Id,
  type: v.picklist(AGENT_TOOL_TYPES),
  appKey: Text,
  connectionId: v.nullable(Id),
  actions: v.array(v.string()),
  flowId: v.nullable(Id),
  askFirst: v.array(v.string()),
  ...Stamps,
});

/** A flow as a portable document (API.md §10): `POST /flows/:flowId/export`, a template's `flowData`. */
const ExportDocument = v.object({
  id: Id,
  name: v.string(),
  steps: v.array(
    v.object({
      id: Id,
      key: Text,
      name: Text,
      appKey: Text,
      type: v.picklist(['trigger', 'action']),
      parameters: v.record(v.string(), v.unknown()),
      position: v.pipe(v.number(), v.integer()),
      webhookPath: Text,
      // Absent from documents made before flows had a tree (a template's may be one): a top-level single step.
      structuralType: v.optional(v.picklist(['single', 'paths', 'branch', 'loop'])),
      parentStepId: v.optional(v.nullable(Id)),
      branchConditions: v.optional(v.nullable(BranchConditions)),
    }),
  ),
});

const Template = v.object({ id: Id, name: v.string(), flowData: ExportDocument, ...Stamps });

/** A template shipped with Conveyor, named by a stable key; `apps` are the apps its steps use. */
const BuiltInTemplate = v.object({
  key: v.string(),
  name: v.string(),
  description: v.string(),
  apps: v.array(v.object({ key: v.string(), name: v.string(), iconUrl: v.string() })),
  flowData: ExportDocument,
});

/** A step's record in a run, as the step shows its own. */
const LastExecutionStep = v.object({
  id: Id,
  executionId: Id,
  stepId: Id,
  status: v.picklist(['success', 'failure']),
  dataIn: v.unknown(),
  dataOut: v.unknown(),
  errorDetails: v.unknown(),
  /** The paths, branch or loop step it ran in; null at the top level. */
  parentStepId: v.nullable(Id),
  /** The branch (its step's id) it ran in, when it sits in one. */
  branchId: v.nullable(Id),
  /** The innermost loop iteration it ran in (0-based); null outside loops. */
  iteration: v.nullable(v.pipe(v.number(), v.integer())),
  /** Every loop iteration it ran in, outermost first (`<loopStepId>:<index>` joined by `/`); empty outside loops. */
  scope: v.string(),
  ...Stamps,
});
const StepWithLastExecutionStep = v.object({ ...Step.entries, lastExecutionStep: v.nullable(LastExecutionStep) });

/** A record with its step as it is now; null once the step was deleted. */
const ExecutionStep = v.object({ ...LastExecutionStep.entries, step: v.nullable(Step) });

const Execution = v.object({
  id: Id,
  flowId: Id,
  status: v.picklist(['running', 'waiting', 'success', 'failure']),
  testRun: v.boolean(),
  flowVersion: v.nullable(VersionRef),
  retryOf: v.nullable(Id),
  /** The run whose `flows.callFlow` step started this one. */
  parentExecutionId: v.nullable(Id),
  resumeAt: Moment,
  ...Stamps,
  finishedAt: Moment,
  flow: Flow,
});
const ExecutionDetail = v.object({ ...Execution.entries, steps: v.array(ExecutionStep) });

const TokenUsage = v.object({ inputTokens: v.number(), outputTokens: v.number() });

/** A call a step made on its way (an agent's model or tool call), under its execution step. */
const StepCall = v.object({
  id: Id,
  executionId: Id,
  stepId: Id,
  /** The step where it ran: its id and loop iterations (`<stepId>@<scope>`). */
  stepKey: v.string(),
  /** Its place in the step's calls, from 0. */
  seq: v.pipe(v.number(), v.integer()),
  kind: v.picklist(['model', 'tool']),
  /** The model's name, or the tool's. */
  name: v.string(),
  /** Model calls: the messages new since the previous model call, the model, the tools' names. Tool calls: `{ toolCallId, arguments }`. */
  input: v.unknown(),
  /** Model calls: the answer (`text`, `toolCalls`, `usage`, `model`, `finishReason`). Tool calls: what the tool answered. */
  output: v.unknown(),
  status: v.picklist(['running', 'waiting', 'success', 'failure', 'denied']),
  error: Text,
  usage: v.nullable(TokenUsage),
  startedAt: Timestamp,
  finishedAt: Moment,
});

/** One run of an agent: from a flow's step (`flowExecutionId`, `stepKey`), or a test from the console (both null). */
const AgentExecution = v.object({
  id: Id,
  agentId: Id,
  flowExecutionId: v.nullable(Id),
  stepKey: Text,
  prompt: v.string(),
  output: Text,
  status: v.picklist(['running', 'waiting', 'completed', 'failed']),
  usage: TokenUsage,
  ...Stamps,
  finishedAt: Moment,
});
const AgentExecutionDetail = v.object({ ...AgentExecution.entries, calls: v.array(StepCall) });
const AgentTestAnswer = v.object({
  response: v.string(),
  /** The agent's run. */
  executionId: Id,
  /** Tools left out of a test: flows (`flow:<id>`), and tools that ask first. */
  skipped: v.array(v.string()),
});

const SamlAuthProvider = v.object({
  id: Id,
  name: v.string(),
  certificate: v.string(),
  signatureAlgorithm: v.picklist(SAML_SIGNATURE_ALGORITHMS),
  issuer: v.string(),
  entryPoint: v.string(),
  firstnameAttributeName: v.string(),
  surnameAttributeName: v.string(),
  emailAttributeName: v.string(),
  roleAttributeName: v.string(),
  defaultRoleId: Id,
  active: v.boolean(),
  loginUrl: v.string(),
  ...Stamps,
});

/** What a login page needs, before anyone is signed in. */
const PublicSamlAuthProvider = v.object({ id: Id, name: v.string(), loginUrl: v.string(), issuer: v.string() });

const Period = v.object({ start: Timestamp, end: Timestamp });

const PlanAndUsage = v.object({
  plan: v.object({ id: v.string(), name: v.string(), limit: v.nullable(v.pipe(v.number(), v.integer())) }),
  usage: v.object({ task: v.pipe(v.number(), v.integer()), periodStart: Timestamp, periodEnd: Timestamp }),
});

const Subscription = v.object({
  id: Id,
  userId: Id,
  planId: v.string(),
  status: v.picklist(SUBSCRIPTION_STATUSES),
  currentPeriod: v.nullable(Period),
  nextBillAt: Moment,
  cancelUrl: Text,
  updateUrl: Text,
  ...Stamps,
});

const Invoice = v.object({
  id: Id,
  subscriptionId: v.nullable(Id),
  status: v.string(),
  number: Text,
  total: v.pipe(v.string(), v.description("In the currency's smallest unit, as a decimal string")),
  currency: v.string(),
  billedAt: Moment,
  period: v.nullable(Period),
  ...Stamps,
});

/** Every named answer schema: the OpenAPI document's `components.schemas` and its `$ref`s. */
export const RESOURCE_SCHEMAS = {
  Timestamp,
  Permission,
  Role,
  RoleWithPermissions,
  User,
  InvitedUser,
  ApiToken,
  NewApiToken,
  License,
  Connection,
  App,
  UserApp,
  AppConfig,
  OAuthClient,
  Step,
  StepWithLastExecutionStep,
  Flow,
  VersionRef,
  FlowVersion,
  VersionStep,
  FlowVersionDetail,
  VersionComparison,
  DatastoreEntry,
  Folder,
  Form,
  Agent,
  AgentTool,
  McpServer,
  NewMcpServer,
  McpTool,
  McpToolExecution,
  ExportDocument,
  Template,
  BuiltInTemplate,
  LastExecutionStep,
  ExecutionStep,
  Execution,
  ExecutionDetail,
  StepCall,
  AgentExecution,
  AgentExecutionDetail,
  AgentTestAnswer,
  SamlAuthProvider,
  PublicSamlAuthProvider,
  Period,
  PlanAndUsage,
  Subscription,
  Invoice,
} as const;

type Schemas = typeof RESOURCE_SCHEMAS;
/** Read-only all the way down, so that the domain's read-only arrays are presented as they are. */
type Frozen<T> = T extends readonly (infer Item)[]
  ? readonly Frozen<Item>[]
  : T extends object
    ? { readonly [K in keyof T]: Frozen<T[K]> }
    : T;
/** The JSON a presenter gives for the named schema. */
export type Answer<Name extends keyof Schemas> = Frozen<v.InferOutput<Schemas[Name]>>;
