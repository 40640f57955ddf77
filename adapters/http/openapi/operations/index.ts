import type { TaggedOperation } from '../operation.js';
import { ACCOUNT_OPERATIONS, REFERENCE_OPERATIONS, SERVICE_OPERATIONS } from './accounts.js';
import { ADMINISTRATION_OPERATIONS } from './administration.js';
import { AGENT_RUN_OPERATIONS } from './agent-runs.js';
import { AGENT_OPERATIONS } from './agents.js';
import { APP_OPERATIONS, CONNECTION_OPERATIONS } from './apps.js';
import { BILLING_OPERATIONS } from './billing.js';
import { EXECUTION_OPERATIONS, FLOW_OPERATIONS } from './flows.js';
import { FORM_OPERATIONS } from './forms.js';
import { INTAKE_OPERATIONS } from './intake.js';
import { MCP_OPERATIONS } from './mcp.js';
import { SAML_OPERATIONS } from './saml.js';

/** Every route the server answers, as the OpenAPI document and the reference page show them. */
export const OPERATIONS: readonly TaggedOperation[] = [
  ...SERVICE_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...ADMINISTRATION_OPERATIONS,
  ...SAML_OPERATIONS,
  ...APP_OPERATIONS,
  ...CONNECTION_OPERATIONS,
  ...FLOW_OPERATIONS,
  ...EXECUTION_OPERATIONS,
  ...AGENT_RUN_OPERATIONS,
  ...FORM_OPERATIONS,
  ...AGENT_OPERATIONS,
  ...MCP_OPERATIONS,
  ...BILLING_OPERATIONS,
  ...INTAKE_OPERATIONS,
  ...REFERENCE_OPERATIONS,
];
