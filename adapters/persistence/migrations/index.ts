import type { Migration } from 'kysely';
import { accounts } from './0001-accounts.js';
import { administration } from './0002-administration.js';
import { connections } from './0003-connections.js';
import { flows } from './0004-flows.js';
import { jobQueue } from './0005-job-queue.js';
import { executions } from './0006-executions.js';
import { stepOptions } from './0007-step-options.js';
import { saml } from './0008-saml.js';
import { billing } from './0009-billing.js';
import { roleNames } from './0010-role-names.js';
import { flowVersions } from './0011-flow-versions.js';
import { flowControl } from './0012-flow-control.js';
import { forms } from './0013-forms.js';
import { listeners } from './0014-listeners.js';
import { flowHooks } from './0015-flow-hooks.js';
import { connectionAuthorizations } from './0016-connection-authorizations.js';
import { agents } from './0017-agents.js';
import { stepCalls } from './0018-step-calls.js';
import { mcpServers } from './0019-mcp-servers.js';

/** Every migration, in the order it runs. Append only: a released migration never changes. */
export const migrations: ReadonlyArray<readonly [name: string, migration: Migration]> = [
  ['0001-accounts', accounts],
  ['0002-administration', administration],
  ['0003-connections', connections],
  ['0004-flows', flows],
  ['0005-job-queue', jobQueue],
  ['0006-executions', executions],
  ['0007-step-options', stepOptions],
  ['0008-saml', saml],
  ['0009-billing', billing],
  ['0010-role-names', roleNames],
  ['0011-flow-versions', flowVersions],
  ['0012-flow-control', flowControl],
  ['0013-forms', forms],
  ['0014-listeners', listeners],
  ['0015-flow-hooks', flowHooks],
  ['0016-connection-authorizations', connectionAuthorizations],
  ['0017-agents', agents],
  ['0018-step-calls', stepCalls],
  ['0019-mcp-servers', mcpServers],
];
