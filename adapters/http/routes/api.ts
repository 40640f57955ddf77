import { Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { accessTokenRoutes } from './access-tokens.routes.js';
import { adminUserRoutes } from './admin-users.routes.js';
import { agentRunRoutes } from './agent-runs.routes.js';
import { agentRoutes } from './agents.routes.js';
import { apiTokenRoutes } from './api-tokens.routes.js';
import { appAdminRoutes } from './app-admin.routes.js';
import { appRoutes } from './apps.routes.js';
import { billingRoutes } from './billing.routes.js';
import { configRoutes } from './config.routes.js';
import { connectionRoutes } from './connections.routes.js';
import { consoleSessionRoutes } from './console-session.routes.js';
import { datastoreRoutes } from './datastore.routes.js';
import { executionRoutes } from './executions.routes.js';
import { flowRoutes } from './flows.routes.js';
import { folderRoutes } from './folders.routes.js';
import { formRoutes } from './forms.routes.js';
import { installationRoutes } from './installation.routes.js';
import { mcpRoutes } from './mcp.routes.js';
import { mcpServerRoutes } from './mcp-servers.routes.js';
import { roleRoutes } from './roles.routes.js';
import { samlProviderRoutes } from './saml-providers.routes.js';
import { serviceRoutes } from './service.routes.js';
import { stepCallRoutes } from './step-calls.routes.js';
import { stepRoutes } from './steps.routes.js';
import { templateRoutes } from './templates.routes.js';
import { userRoutes } from './users.routes.js';

/** The REST router of API.md §6, mounted at both `/api/v1` and `/internal/api/v1`. */
export const apiRouter = (deps: HttpDeps) =>
  new Hono<AppEnv>()
    .route('/', serviceRoutes(deps))
    .route('/', configRoutes(deps))
    .route('/', installationRoutes(deps))
    .route('/', accessTokenRoutes(deps))
    .route('/', consoleSessionRoutes(deps))
    .route('/', userRoutes(deps))
    .route('/', adminUserRoutes(deps))
    .route('/', roleRoutes(deps))
    .route('/', apiTokenRoutes(deps))
    .route('/', samlProviderRoutes(deps))
    .route('/', appRoutes(deps))
    .route('/', connectionRoutes(deps))
    .route('/', appAdminRoutes(deps))
    .route('/', executionRoutes(deps))
    .route('/', stepCallRoutes(deps))
    .route('/', agentRunRoutes(deps))
    .route('/', flowRoutes(deps))
    .route('/', datastoreRoutes(deps))
    .route('/', stepRoutes(deps))
    .route('/', folderRoutes(deps))
    .route('/', formRoutes(deps))
    .route('/', agentRoutes(deps))
    .route('/', templateRoutes(deps))
    .route('/', mcpServerRoutes(deps))
    .route('/', mcpRoutes(deps))
    .route('/', billingRoutes(deps));
