import { makeFireTrigger, makeSyncFlowTrigger } from '../engine/flow-triggers.js';
import { makeIntakeGate } from '../engine/intake-gate.js';
import { makeListenerSupervisor } from '../engine/listener-supervisor.js';
import { makeEngineMaintenance } from '../engine/maintenance.js';
import { makeRunExecution } from '../engine/run-execution.js';
import { makeCheckAccess } from './access/check-access.js';
import { makeDeleteUser } from './admin-users/delete-user.js';
import { makeGetUser } from './admin-users/get-user.js';
import { makeInviteUser } from './admin-users/invite-user.js';
import { makeListUsers } from './admin-users/list-users.js';
import { makeUpdateUser } from './admin-users/update-user.js';
import { makeAddAgentTool } from './agents/add-agent-tool.js';
import { makeAgentQueries } from './agents/agent-queries.js';
import { makeAgentRuns } from './agents/agent-runs.js';
import { makeCreateAgent } from './agents/create-agent.js';
import { makeDeleteAgent } from './agents/delete-agent.js';
import { makeDeleteAgentTool } from './agents/delete-agent-tool.js';
import { makeUpdateAgent } from './agents/update-agent.js';
import { makeCreateApiToken } from './api-tokens/create-api-token.js';
import { makeDeleteApiToken } from './api-tokens/delete-api-token.js';
import { makeListApiTokens } from './api-tokens/list-api-tokens.js';
import { makeAppAdministration } from './app-admin/app-admin.js';
import { makeAppQueries } from './apps/app-queries.js';
import { makeAuthenticate } from './auth/authenticate.js';
import { makeRevokeAccessToken } from './auth/revoke-access-token.js';
import { makeSignIn } from './auth/sign-in.js';
import { makeBillingQueries } from './billing/billing-queries.js';
import { makeBilling } from './billing/plan-and-usage.js';
import { makeReceiveBillingWebhook } from './billing/receive-billing-webhook.js';
import { makeCreateConnection } from './connections/create-connection.js';
import { makeDeleteConnection } from './connections/delete-connection.js';
import { makeGenerateAuthUrl } from './connections/generate-auth-url.js';
import { makeGetConnection } from './connections/get-connection.js';
import { makeResetConnection } from './connections/reset-connection.js';
import { makeUpdateConnection } from './connections/update-connection.js';
import { makeTestConnection, makeVerifyConnection } from './connections/verify-connection.js';
import { makeFlowDatastore } from './datastore/flow-datastore.js';
import type { CoreDeps } from './deps.js';
import { makeAcceptWebhook } from './executions/accept-webhook.js';
import { makeAnswerSyncWebhook } from './executions/answer-sync-webhook.js';
import { makeCheckResumeUrl } from './executions/check-resume-url.js';
import { makeGetExecution, makeListExecutionSteps, makeListExecutions } from './executions/execution-queries.js';
import { makeRetryExecution } from './executions/retry-execution.js';
import { makeSignalRun } from './executions/signal-run.js';
import { makeAnswerStepCall, makeFindStepCall, makeListStepCalls } from './executions/step-calls.js';
import { makeGetWebhookResponse } from './executions/webhook-response.js';
import { makeApplyFlowFiles } from './flows/apply-flow-files.js';
import { makeCreateFlow } from './flows/create-flow.js';
import { makeDeleteFlow } from './flows/delete-flow.js';
import { makeDuplicateFlow } from './flows/duplicate-flow.js';
import { makeExportFlow } from './flows/export-flow.js';
import { makeExportFlowFiles } from './flows/export-flow-files.js';
import { makeGetFlowFolder, makeUpdateFlowFolder } from './flows/flow-folder.js';
import { makeDraftReset, makeFlowHistory } from './flows/flow-versions.js';
import { makeGetFlow } from './flows/get-flow.js';
import { makeImportFlow } from './flows/import-flow.js';
import { makeListFlows, makeListFlowsUsingApp, makeListFlowsUsingConnection } from './flows/list-flows.js';
import { makePublishFlow } from './flows/publish-flow.js';
import { makeUpdateFlow } from './flows/update-flow.js';
import { makeUpdateFlowStatus } from './flows/update-flow-status.js';
import { makeCreateFolder } from './folders/create-folder.js';
import { makeDeleteFolder } from './folders/delete-folder.js';
import { makeListFolders } from './folders/list-folders.js';
import { makeUpdateFolder } from './folders/update-folder.js';
import { makeCreateForm } from './forms/create-form.js';
import { makeDeleteForm } from './forms/delete-form.js';
import { makeFormQueries } from './forms/form-queries.js';
import { makeGetPublicForm } from './forms/public-form.js';
import { makeAnswerRunForm, makeGetRunForm } from './forms/run-form.js';
import { makeSubmitForm } from './forms/submit-form.js';
import { makeUpdateForm } from './forms/update-form.js';
import { makeInstallFirstAdmin } from './installation/install-first-admin.js';
import { makeGetInstanceConfig } from './instance/get-instance-config.js';
import { makeGetLicenseStatus } from './instance/get-license-status.js';
import { makeGetServiceInfo } from './instance/get-service-info.js';
import { makeUpdateInstanceConfig } from './instance/update-instance-config.js';
import { makeMcpServerManagement } from './mcp-servers/manage-mcp-servers.js';
import { makeMcpToolManagement } from './mcp-servers/manage-mcp-tools.js';
import { makeServeMcp } from './mcp-servers/serve-mcp.js';
import { makeCreateRole } from './roles/create-role.js';
import { makeDeleteRole } from './roles/delete-role.js';
import { makeGetPermissionCatalog } from './roles/get-permission-catalog.js';
import { makeGetRole } from './roles/get-role.js';
import { makeListRoles } from './roles/list-roles.js';
import { makeUpdateRole } from './roles/update-role.js';
import { makeCreateSamlAuthProvider } from './saml/create-saml-auth-provider.js';
import { makeSamlRoleMappings } from './saml/role-mappings.js';
import { makeSamlAuthProviderQueries } from './saml/saml-auth-provider-queries.js';
import { makeSamlSignIn } from './saml/saml-sign-in.js';
import { makeUpdateSamlAuthProvider } from './saml/update-saml-auth-provider.js';
import { makeUpsertSamlAuthProvider } from './saml/upsert-saml-auth-provider.js';
import { makeContinueStep } from './steps/continue-step.js';
import { makeCreateStep } from './steps/create-step.js';
import { makeDeleteStep } from './steps/delete-step.js';
import { makeGetDynamicData, makeGetDynamicFields } from './steps/dynamic.js';
import { makeMoveStep } from './steps/move-step.js';
import { makeGetPreviousSteps, makeGetStepConnection } from './steps/step-queries.js';
import { makeTestAndContinueStep, makeTestStep } from './steps/test-step.js';
import { makeUpdateStep } from './steps/update-step.js';
import { makeWaitForTestEvent } from './steps/wait-for-test-event.js';
import { makeListBuiltInTemplates } from './templates/built-in-templates.js';
import { makeCreateTemplate } from './templates/create-template.js';
import { makeDeleteTemplate } from './templates/delete-template.js';
import { makeGetTemplate } from './templates/get-template.js';
import { makeListPublicTemplates, makeListTemplates } from './templates/list-templates.js';
import { makeUpdateTemplate } from './templates/update-template.js';
import { makeAcceptInvitation } from './users/accept-invitation.js';
import { makeChangeOwnPassword } from './users/change-own-password.js';
import { makeDeleteOwnAccount } from './users/delete-own-account.js';
import { makeForgotPassword } from './users/forgot-password.js';
import { makeGetCurrentUser } from './users/get-current-user.js';
import { makeOperatorActor } from './users/operator-actor.js';
import { makeRegisterUser } from './users/register-user.js';
import { makeResetPassword } from './users/reset-password.js';
import { makeUpdateOwnProfile } from './users/update-own-profile.js';

/** The application's whole public surface: every driving adapter (HTTP, GraphQL, CLI) calls these. */
export const buildUseCases = (base: CoreDeps) => {
  // One billing service per process: its quota verdicts are cached for intake and triggers.
  const billing = makeBilling(base);
  const deps = { ...base, billing };
  // One intake gate per process: the calls and runs it counts are this process's own.
  const intake = makeIntakeGate({
    executions: base.repos.executions,
    clock: base.clock,
    logger: base.logger,
    limits: base.settings.engine.intake,
  });
  // Shared by the use cases that answer a synchronous webhook.
  const acceptWebhook = makeAcceptWebhook(deps, intake);
  const runExecution = makeRunExecution(deps);
  const getWebhookResponse = makeGetWebhookResponse(deps);
  const answerSyncWebhook = makeAnswerSyncWebhook({ ...deps, acceptWebhook, runExecution, getWebhookResponse });
  const signalRun = makeSignalRun(deps);
  return {
    checkAccess: makeCheckAccess(deps),
    getServiceInfo: makeGetServiceInfo(deps),
    updateInstanceConfig: makeUpdateInstanceConfig(deps),
    installFirstAdmin: makeInstallFirstAdmin(deps),
    signIn: makeSignIn(deps),
    authenticate: makeAuthenticate(deps),
    operatorActor: makeOperatorActor(deps),
    revokeAccessToken: makeRevokeAccessToken(deps),
    getCurrentUser: makeGetCurrentUser(),
    updateOwnProfile: makeUpdateOwnProfile(deps),
    changeOwnPassword: makeChangeOwnPassword(deps),
    deleteOwnAccount: makeDeleteOwnAccount(deps),
    registerUser: makeRegisterUser(deps),
    forgotPassword: makeForgotPassword(deps),
    resetPassword: makeResetPassword(deps),
    acceptInvitation: makeAcceptInvitation(deps),

    getInstanceConfig: makeGetInstanceConfig(deps),
    getLicenseStatus: makeGetLicenseStatus(deps),

    listRoles: makeListRoles(deps),
    getRole: makeGetRole(deps),
    createRole: makeCreateRole(deps),
    updateRole: makeUpdateRole(deps),
    deleteRole: makeDeleteRole(deps),
    getPermissionCatalog: makeGetPermissionCatalog(),

    listUsers: makeListUsers(deps),
    getUser: makeGetUser(deps),
    inviteUser: makeInviteUser(deps),
    updateUser: makeUpdateUser(deps),
    deleteUser: makeDeleteUser(deps),

    createApiToken: makeCreateApiToken(deps),
    listApiTokens: makeListApiTokens(deps),
    deleteApiToken: makeDeleteApiToken(deps),

    ...makeSamlAuthProviderQueries(deps),
    createSamlAuthProvider: makeCreateSamlAuthProvider(deps),
    updateSamlAuthProvider: makeUpdateSamlAuthProvider(deps),
    upsertSamlAuthProvider: makeUpsertSamlAuthProvider(deps),
    ...makeSamlRoleMappings(deps),
    ...makeSamlSignIn(deps),

    ...makeAppQueries(deps),
    ...makeAppAdministration(deps),

    getConnection: makeGetConnection(deps),
    createConnection: makeCreateConnection(deps),
    updateConnection: makeUpdateConnection(deps),
    deleteConnection: makeDeleteConnection(deps),
    verifyConnection: makeVerifyConnection(deps),
    testConnection: makeTestConnection(deps),
    resetConnection: makeResetConnection(deps),
    generateAuthUrl: makeGenerateAuthUrl(deps),

    listFlows: makeListFlows(deps),
    listFlowsUsingApp: makeListFlowsUsingApp(deps),
    listFlowsUsingConnection: makeListFlowsUsingConnection(deps),
    getFlow: makeGetFlow(deps),
    createFlow: makeCreateFlow(deps),
    updateFlow: makeUpdateFlow(deps),
    deleteFlow: makeDeleteFlow(deps),
    updateFlowStatus: makeUpdateFlowStatus(deps),
    duplicateFlow: makeDuplicateFlow(deps),
    exportFlow: makeExportFlow(deps),
    importFlow: makeImportFlow(deps),
    exportFlowFiles: makeExportFlowFiles(deps),
    applyFlowFiles: makeApplyFlowFiles(deps),
    getFlowFolder: makeGetFlowFolder(deps),
    updateFlowFolder: makeUpdateFlowFolder(deps),
    publishFlow: makePublishFlow(deps),
    flowHistory: makeFlowHistory(deps),
    draftReset: makeDraftReset(deps),
    flowDatastore: makeFlowDatastore(deps),

    createStep: makeCreateStep(deps),
    updateStep: makeUpdateStep(deps),
    deleteStep: makeDeleteStep(deps),
    moveStep: makeMoveStep(deps),
    getPreviousSteps: makeGetPreviousSteps(deps),
    getStepConnection: makeGetStepConnection(deps),
    getDynamicData: makeGetDynamicData(deps),
    getDynamicFields: makeGetDynamicFields(deps),
    testStep: makeTestStep(deps),
    testAndContinueStep: makeTestAndContinueStep(deps),
    waitForTestEvent: makeWaitForTestEvent(deps),
    continueStep: makeContinueStep(deps),

    listExecutions: makeListExecutions(deps),
    getExecution: makeGetExecution(deps),
    listExecutionSteps: makeListExecutionSteps(deps),
    retryExecution: makeRetryExecution(deps),
    acceptWebhook,
    signalRun,
    listStepCalls: makeListStepCalls(deps),
    findStepCall: makeFindStepCall(deps),
    agentRuns: makeAgentRuns(deps),
    answerStepCall: makeAnswerStepCall(deps),
    checkResumeUrl: makeCheckResumeUrl(deps),
    answerSyncWebhook,
    /** Whether webhook intake would refuse a call of the flow now (429, 503); asked before reading the call. */
    webhookRefusal: intake.refusal,
    getWebhookResponse,

    /** For workers: run (or go on with) an execution; fire a flow's schedule or polling trigger. */
    runExecution,
    fireTrigger: makeFireTrigger(deps),
    syncFlowTrigger: makeSyncFlowTrigger(deps),
    /** For workers: the listener triggers' subscriptions this process (`holder`) holds. */
    listeners: (holder: string) => makeListenerSupervisor(deps, holder),
    engine: makeEngineMaintenance(deps),

    listFolders: makeListFolders(deps),
    createFolder: makeCreateFolder(deps),
    updateFolder: makeUpdateFolder(deps),
    deleteFolder: makeDeleteFolder(deps),

    ...makeAgentQueries(deps),
    createAgent: makeCreateAgent(deps),
    updateAgent: makeUpdateAgent(deps),
    deleteAgent: makeDeleteAgent(deps),
    addAgentTool: makeAddAgentTool(deps),
    deleteAgentTool: makeDeleteAgentTool(deps),

    ...makeFormQueries(deps),
    createForm: makeCreateForm(deps),
    updateForm: makeUpdateForm(deps),
    deleteForm: makeDeleteForm(deps),
    getPublicForm: makeGetPublicForm(deps),
    submitForm: makeSubmitForm({ ...deps, acceptWebhook, answerSyncWebhook, refusal: intake.refusal }),
    getRunForm: makeGetRunForm(deps),
    answerRunForm: makeAnswerRunForm({ ...deps, signalRun }),

    listTemplates: makeListTemplates(deps),
    listPublicTemplates: makeListPublicTemplates(deps),
    listBuiltInTemplates: makeListBuiltInTemplates(deps),
    getTemplate: makeGetTemplate(deps),
    createTemplate: makeCreateTemplate(deps),
    updateTemplate: makeUpdateTemplate(deps),
    deleteTemplate: makeDeleteTemplate(deps),

    ...makeMcpServerManagement(deps),
    ...makeMcpToolManagement(deps),
    ...makeServeMcp({ ...deps, runExecution, intake }),

    ...makeBillingQueries(deps),
    receiveBillingWebhook: makeReceiveBillingWebhook(deps),
  };
};

export type UseCases = ReturnType<typeof buildUseCases>;
