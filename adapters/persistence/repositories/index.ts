import type { Repositories } from '../../../ports/repositories.js';
import { createAccessTokenRepository } from './access-tokens.repository.js';
import { createAgentMemoryRepository } from './agent-memories.repository.js';
import {
  createAgentExecutionRepository,
  createAgentRepository,
  createAgentToolRepository,
} from './agents.repository.js';
import { createApiTokenRepository } from './api-tokens.repository.js';
import { createAppConfigRepository } from './app-configs.repository.js';
import {
  createBillingEventRepository,
  createInvoiceRepository,
  createSubscriptionRepository,
  createUsageRepository,
} from './billing.repository.js';
import { createConfigRepository } from './config.repository.js';
import { createConnectionRepository } from './connections.repository.js';
import { createExecutionStepRepository } from './execution-steps.repository.js';
import { createExecutionRepository } from './executions.repository.js';
import type { Executor } from './executor.js';
import { createFlowHookRepository } from './flow-hooks.repository.js';
import { createFlowStoreRepository, createSeenItemRepository } from './flow-store.repository.js';
import { createFlowVersionRepository } from './flow-versions.repository.js';
import { createFlowRepository } from './flows.repository.js';
import { createFolderRepository } from './folders.repository.js';
import { createFormRepository } from './forms.repository.js';
import { createListenerRepository } from './listeners.repository.js';
import {
  createMcpServerRepository,
  createMcpToolExecutionRepository,
  createMcpToolRepository,
} from './mcp-servers.repository.js';
import { createOAuthClientRepository } from './oauth-clients.repository.js';
import { createRoleRepository } from './roles.repository.js';
import { createRunSignalRepository } from './run-signals.repository.js';
import { createSamlAuthProviderRepository } from './saml-providers.repository.js';
import {
  createSamlIdentityRepository,
  createSamlMessageRepository,
  createSamlSessionRepository,
} from './saml-sign-in.repository.js';
import { createStepCallRepository } from './step-calls.repository.js';
import { createStepRepository } from './steps.repository.js';
import { createTemplateRepository } from './templates.repository.js';
import { createUserTokenRepository } from './user-tokens.repository.js';
import { createUserRepository } from './users.repository.js';

export const createRepositories = (ex: Executor): Repositories => ({
  users: createUserRepository(ex),
  roles: createRoleRepository(ex),
  accessTokens: createAccessTokenRepository(ex),
  userTokens: createUserTokenRepository(ex),
  config: createConfigRepository(ex),
  apiTokens: createApiTokenRepository(ex),
  connections: createConnectionRepository(ex),
  appConfigs: createAppConfigRepository(ex),
  oauthClients: createOAuthClientRepository(ex),
  flows: createFlowRepository(ex),
  steps: createStepRepository(ex),
  flowVersions: createFlowVersionRepository(ex),
  folders: createFolderRepository(ex),
  templates: createTemplateRepository(ex),
  forms: createFormRepository(ex),
  executions: createExecutionRepository(ex),
  executionSteps: createExecutionStepRepository(ex),
  flowStore: createFlowStoreRepository(ex),
  runSignals: createRunSignalRepository(ex),
  stepCalls: createStepCallRepository(ex),
  agentMemories: createAgentMemoryRepository(ex),
  seenItems: createSeenItemRepository(ex),
  listeners: createListenerRepository(ex),
  flowHooks: createFlowHookRepository(ex),
  agents: createAgentRepository(ex),
  agentTools: createAgentToolRepository(ex),
  agentExecutions: createAgentExecutionRepository(ex),
  mcpServers: createMcpServerRepository(ex),
  mcpTools: createMcpToolRepository(ex),
  mcpToolExecutions: createMcpToolExecutionRepository(ex),
  samlProviders: createSamlAuthProviderRepository(ex),
  samlIdentities: createSamlIdentityRepository(ex),
  samlMessages: createSamlMessageRepository(ex),
  samlSessions: createSamlSessionRepository(ex),
  usage: createUsageRepository(ex),
  subscriptions: createSubscriptionRepository(ex),
  invoices: createInvoiceRepository(ex),
  billingEvents: createBillingEventRepository(ex),
});
