/** The app SDK: everything an integration under adapters/apps imports. */

export type {
  ChatAnswer,
  ChatMessage,
  ChatRequest,
  JsonSchema,
  LanguageModel,
  TokenUsage,
  ToolCall,
  ToolSpec,
} from '../../../ports/language-model.js';
export { whenAborted } from './aborted.js';
export {
  type Argument,
  type ArgumentMap,
  type ArgumentMapOf,
  type ArgumentOptions,
  boolean,
  code,
  describeArguments,
  dropdown,
  dynamicDropdown,
  dynamicMultiSelect,
  type InferParameters,
  json,
  type KeyValue,
  keyValueList,
  number,
  parametersSchema,
  text,
} from './arguments.js';
export {
  type FieldsAuthContext,
  type FieldsAuthDefinition,
  fieldsAuth,
  type NoAuthDefinition,
  noAuth,
  type Verified,
} from './auth.js';
export { basicHeader, bearerHeader } from './auth-headers.js';
export { type CachedTokenOptions, cachedTokenGrant } from './cached-token.js';
export { httpUrl, matches } from './checks.js';
export {
  type ClientCredentialFields,
  type ClientCredentialsAuthOptions,
  type ClientCredentialValues,
  oauth2ClientCredentialsAuth,
} from './client-credentials.js';
export {
  type AppContext,
  type AuthAccess,
  createMemoryStore,
  type ExecutionInfo,
  type ListenerContext,
  type ListenerMessage,
  type NoParameters,
  type RegisterHookContext,
  type RunAccess,
  type Store,
  type TriggerContext,
  type UnregisterHookContext,
  type WebhookRequest,
} from './context.js';
export {
  type ActionDefinition,
  type App,
  type AppHttpSettings,
  type AuthDefinition,
  appIconUrl,
  type DraftContext,
  type DynamicDataHandler,
  type DynamicFieldsHandler,
  type DynamicOption,
  defineAction,
  defineApp,
  defineTrigger,
  type LanguageModelFactory,
  type Toolbox,
  type TriggerDefinition,
  type TriggerItem,
  type TriggerSchedule,
} from './define.js';
export {
  type FlowStop,
  type FlowSuspend,
  type FlowWait,
  isFlowStop,
  isFlowSuspend,
  isFlowWait,
  runOf,
  stopFlow,
  suspendUntil,
  waitUntil,
} from './flow-control.js';
export {
  type GoogleServiceAccountAuthOptions,
  googleServiceAccountAuth,
  parseServiceAccountKey,
  type ServiceAccountFields,
  type ServiceAccountKey,
} from './google-service-account.js';
export { deleteHook, hookFields } from './hook-state.js';
export type { HttpClient, HttpMethod, HttpRequest, HttpResponse } from './http-client.js';
export { HttpError, HttpRequestError, isRetryableStatus, retryAfterSeconds } from './http-errors.js';
export { createHttpTransport, DEFAULT_HTTP_LIMITS, type HttpLimits, type HttpTransport } from './http-transport.js';
export { jsonOrText } from './json-or-text.js';
export {
  assertHostAllowed,
  BlockedAddressError,
  blockedCause,
  isPublicAddress,
  type NetworkPolicy,
  type ResolveHost,
} from './network-guard.js';
export {
  type ClientSettings,
  type OAuth2AuthDefinition,
  type OAuth2Context,
  type OAuth2Data,
  type OAuth2Tokens,
  oauth2Auth,
} from './oauth2.js';
export { nextLink, type PaginateLimits, type Pagination, paginate } from './paginate.js';
export { type PollingTriggerOptions, pollingTrigger } from './polling-trigger.js';
export { type RequestTemplate, type RestActionOptions, restAction, segment } from './rest-action.js';
export { hmacBase64, hmacHex, type SignedPayload, safeEqual } from './signatures.js';
export { TemporaryError } from './temporary-error.js';
export {
  type ClientAuthentication,
  OAuth2Error,
  requestTokens,
  type TokenAnswer,
  type TokenAnswerValues,
  type TokenClient,
  type TokenRequestFormat,
} from './token-endpoint.js';

export { AuthorizationRevokedError, EXPIRY_MARGIN_MS, type TokenGrant } from './token-grant.js';
export { InvalidParametersError, parseParameters } from './validation.js';
export {
  refuseWebhook,
  replyToWebhook,
  WebhookRefusedError,
  type WebhookReply,
  WebhookReplyRequested,
} from './webhook-answers.js';
