import type { ColumnType, Generated } from 'kysely';

/** Stored as ISO-8601 text on SQLite and timestamptz on Postgres; written as ISO strings. */
export type Timestamp = ColumnType<Date | string, string, string>;
/** Stored as 0/1 on SQLite and boolean on Postgres. */
export type Bool = ColumnType<boolean | number, boolean | number, boolean | number>;
/** Stored as text on SQLite and jsonb on Postgres; written as JSON text. */
export type Json = ColumnType<unknown, string, string>;
/** int8 comes back from pg as a string. */
export type Int8 = ColumnType<string | number | bigint, number, number>;

export interface RolesTable {
  id: string;
  name: string;
  description: string | null;
  is_admin: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PermissionsTable {
  id: string;
  role_id: string;
  action: string;
  subject: string;
  conditions: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: string;
  email: string;
  full_name: string;
  password_hash: string | null;
  role_id: string;
  status: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface AccessTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  created_at: Timestamp;
}

export interface UserTokensTable {
  id: string;
  user_id: string;
  kind: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface ConfigTable {
  id: number;
  installation_completed: Bool;
  registration_enabled: Bool;
  enable_templates: Bool;
  appearance: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  masked_token: string;
  created_at: Timestamp;
}

export interface RateLimitHitsTable {
  key: string;
  window_ends_ms: Int8;
  hits: number;
}

export interface AppConfigsTable {
  app_key: string;
  disabled: Bool;
  use_only_predefined_auth_clients: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OAuthClientsTable {
  id: string;
  app_key: string;
  name: string;
  active: Bool;
  /** Sealed JSON (SecretBox). */
  settings: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ConnectionsTable {
  id: string;
  user_id: string;
  app_key: string;
  oauth_client_id: string | null;
  /** Sealed JSON (SecretBox), bound to the row id. */
  credentials: string;
  verified: Bool;
  screen_name: string | null;
  oauth_state_hash: string | null;
  oauth_state_expires_at: Timestamp | null;
  /** The pending authorization's PKCE code verifier, sealed (SecretBox) and bound to the row id. */
  oauth_code_verifier: string | null;
  /** Never verified yet: not listed for use. */
  draft: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FlowFoldersTable {
  id: string;
  user_id: string;
  name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FormsTable {
  id: string;
  user_id: string;
  name: string;
  display_name: string | null;
  description: string | null;
  response_message: string | null;
  submit_button_text: string | null;
  fields: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FlowsTable {
  id: string;
  user_id: string;
  folder_id: string | null;
  name: string;
  active: Bool;
  published_at: Timestamp | null;
  published_version_id: string | null;
  published_version_number: number | null;
  draft_base_version_id: string | null;
  /** Bumped by every change of the draft's content: what an `If-Match` compares. */
  draft_revision: Generated<number>;
  draft_changed: ColumnType<boolean | number, boolean | number | undefined, boolean | number>;
  file_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FlowVersionsTable {
  id: string;
  flow_id: string;
  number: number;
  message: string | null;
  published_by: string | null;
  name: string;
  steps: Json;
  created_at: Timestamp;
}

export interface StepsTable {
  id: string;
  flow_id: string;
  type: string;
  app_key: string | null;
  key: string | null;
  name: string | null;
  position: number;
  status: string;
  parameters: Json;
  connection_id: string | null;
  app_version: number | null;
  /** Defaults to false. */
  continue_on_failure: ColumnType<boolean | number, boolean | number | undefined, boolean | number>;
  /** Defaults to `single`. */
  structural_type: ColumnType<string, string | undefined, string>;
  parent_step_id: string | null;
  branch_conditions: Json | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TemplatesTable {
  id: string;
  name: string;
  flow_data: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ExecutionsTable {
  id: string;
  flow_id: string;
  status: string;
  test_run: Bool;
  until_step_id: string | null;
  retry_of: string | null;
  resume_at: Timestamp | null;
  step_attempts: Generated<number>;
  lease_owner: string | null;
  lease_until: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: Timestamp | null;
  /** Null: a test run (the draft's steps), or a run finished before flows had versions. */
  flow_version_id: string | null;
  flow_version_number: number | null;
  /** The run whose `callFlow` step started this one, and that step's key (`<stepId>@<scope>`). */
  parent_execution_id: string | null;
  parent_step_key: string | null;
  /** How many calls deep: 0 for a run its trigger started. */
  call_depth: Generated<number>;
  /** How many times a signal or a called run's end woke it. */
  wakes: Generated<number>;
  /** What its resume URL carries; made when first asked for. */
  resume_token: string | null;
}

export interface ExecutionStepsTable {
  id: string;
  execution_id: string;
  step_id: string;
  status: string;
  position: number;
  data_in: Json | null;
  data_out: Json | null;
  error_details: Json | null;
  /** An action step the engine ran (not a trigger's record, not one a retry copied). */
  is_task: ColumnType<boolean | number, boolean | number | undefined, boolean | number>;
  created_at: Timestamp;
  /** The loop iterations the step ran in (`<loopId>:<index>/...`); empty at the top level. */
  scope: ColumnType<string, string | undefined, string>;
  parent_step_id: string | null;
  /** The branch the step ran in, when it sits in one. */
  branch_id: string | null;
  /** The innermost loop iteration it ran in. */
  iteration: number | null;
}

export interface RunSignalsTable {
  id: string;
  execution_id: string;
  kind: string;
  payload: Json | null;
  taken_by: string | null;
  /** The one taker it is meant for (an agent's call waiting for approval); null for any. */
  target: string | null;
  created_at: Timestamp;
}

export interface ExecutionStepCallsTable {
  id: string;
  execution_id: string;
  step_key: string;
  step_id: string;
  seq: number;
  kind: string;
  name: string;
  input: Json | null;
  output: Json | null;
  status: string;
  error: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  started_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface AgentMemoriesTable {
  agent_id: string;
  conversation: string;
  messages: Json;
  updated_at: Timestamp;
}

export interface FlowStoreTable {
  flow_id: string;
  key: string;
  value: Json | null;
  updated_at: Timestamp;
}

export interface SeenItemsTable {
  flow_id: string;
  internal_id: string;
  created_at: Timestamp;
}

export interface FlowListenersTable {
  flow_id: string;
  revision: number;
  version_id: string | null;
  connection_id: string | null;
  holder: string | null;
  lease_until: Timestamp | null;
  status: string;
  failures: number;
  last_error: string | null;
  last_error_at: Timestamp | null;
  updated_at: Timestamp;
}

export interface ListenerMessagesTable {
  flow_id: string;
  message_key: string;
  created_at: Timestamp;
}

export interface FlowHooksTable {
  flow_id: string;
  app_key: string;
  trigger_key: string;
  connection_id: string | null;
  parameters: Json;
  webhook_url: string;
  /** Sealed JSON (`SecretBox`, context `flow-hook:<flow id>`). */
  state: string;
  created_at: Timestamp;
}

export interface AgentsTable {
  id: string;
  user_id: string;
  name: string;
  description: string | null;
  instructions: string | null;
  connection_id: string | null;
  model: string | null;
  temperature: number | null;
  limits: Json;
  memory: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Set when deleted: gone from every read, kept for its runs. */
  deleted_at: Timestamp | null;
}

export interface AgentToolsTable {
  id: string;
  agent_id: string;
  type: string;
  app_key: string | null;
  connection_id: string | null;
  actions: Json;
  flow_id: string | null;
  ask_first: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AgentExecutionsTable {
  id: string;
  agent_id: string;
  execution_id: string | null;
  step_key: string | null;
  prompt: string;
  output: string | null;
  status: string;
  usage: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface SamlAuthProvidersTable {
  id: string;
  name: string;
  certificate: string;
  signature_algorithm: string;
  issuer: string;
  entry_point: string;
  firstname_attribute_name: string;
  surname_attribute_name: string;
  email_attribute_name: string;
  role_attribute_name: string;
  default_role_id: string;
  active: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SamlRoleMappingsTable {
  id: string;
  saml_auth_provider_id: string;
  role_id: string;
  remote_role_name: string;
  /** Mappings are tried in this order. */
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SamlIdentitiesTable {
  id: string;
  saml_auth_provider_id: string;
  /** The provider's name id for the user. */
  remote_id: string;
  user_id: string;
  created_at: Timestamp;
}

export interface SamlRequestsTable {
  /** The AuthnRequest's ID. */
  id: string;
  saml_auth_provider_id: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface SamlUsedAssertionsTable {
  saml_auth_provider_id: string;
  assertion_id: string;
  expires_at: Timestamp;
}

export interface SamlSessionsTable {
  access_token_id: string;
  saml_auth_provider_id: string;
  name_id: string;
  session_index: string | null;
  expires_at: Timestamp;
}

export interface UsageTasksTable {
  execution_id: string;
  user_id: string;
  tasks: number;
  counted_at: Timestamp;
}

export interface SubscriptionsTable {
  id: string;
  user_id: string;
  plan_id: string;
  status: string;
  current_period_start: Timestamp | null;
  current_period_end: Timestamp | null;
  next_bill_at: Timestamp | null;
  cancel_url: string | null;
  update_url: string | null;
  event_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InvoicesTable {
  id: string;
  user_id: string;
  subscription_id: string | null;
  status: string;
  number: string | null;
  total: string;
  currency: string;
  billed_at: Timestamp | null;
  period_start: Timestamp | null;
  period_end: Timestamp | null;
  event_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BillingEventsTable {
  id: string;
  type: string;
  occurred_at: Timestamp;
  received_at: Timestamp;
}

export interface McpServersTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface McpToolsTable {
  id: string;
  mcp_server_id: string;
  type: string;
  app_key: string | null;
  action: string;
  connection_id: string | null;
  flow_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface McpToolExecutionsTable {
  id: string;
  mcp_tool_id: string;
  data_in: Json | null;
  data_out: Json | null;
  status: string;
  error_details: Json | null;
  execution_id: string | null;
  created_at: Timestamp;
}

export interface Database {
  roles: RolesTable;
  permissions: PermissionsTable;
  users: UsersTable;
  access_tokens: AccessTokensTable;
  user_tokens: UserTokensTable;
  config: ConfigTable;
  rate_limit_hits: RateLimitHitsTable;
  api_tokens: ApiTokensTable;
  app_configs: AppConfigsTable;
  oauth_clients: OAuthClientsTable;
  connections: ConnectionsTable;
  flow_folders: FlowFoldersTable;
  forms: FormsTable;
  flows: FlowsTable;
  steps: StepsTable;
  flow_versions: FlowVersionsTable;
  templates: TemplatesTable;
  executions: ExecutionsTable;
  execution_steps: ExecutionStepsTable;
  run_signals: RunSignalsTable;
  execution_step_calls: ExecutionStepCallsTable;
  agent_memories: AgentMemoriesTable;
  flow_store: FlowStoreTable;
  seen_items: SeenItemsTable;
  flow_listeners: FlowListenersTable;
  listener_messages: ListenerMessagesTable;
  flow_hooks: FlowHooksTable;
  agents: AgentsTable;
  agent_tools: AgentToolsTable;
  agent_executions: AgentExecutionsTable;
  mcp_servers: McpServersTable;
  mcp_tools: McpToolsTable;
  mcp_tool_executions: McpToolExecutionsTable;
  saml_auth_providers: SamlAuthProvidersTable;
  saml_role_mappings: SamlRoleMappingsTable;
  saml_identities: SamlIdentitiesTable;
  saml_requests: SamlRequestsTable;
  saml_used_assertions: SamlUsedAssertionsTable;
  saml_sessions: SamlSessionsTable;
  usage_tasks: UsageTasksTable;
  subscriptions: SubscriptionsTable;
  invoices: InvoicesTable;
  billing_events: BillingEventsTable;
}
