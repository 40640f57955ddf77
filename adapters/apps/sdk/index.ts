/** The app SDK: everything an integration under adapters/apps imports. */
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
export { httpUrl, matches } from './checks.js';
export {
  type AppContext,
  type AuthAccess,
  createMemoryStore,
  type ExecutionInfo,
  type ListenerContext,
  type ListenerMessage,
  type NoParameters,
  type RunAccess,
  type Store,
  type TriggerContext,
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
export type { HttpClient, HttpMethod, HttpRequest, HttpResponse } from './http-client.js';
export { HttpError, HttpRequestError, isRetryableStatus } from './http-errors.js';
export { createHttpTransport, DEFAULT_HTTP_LIMITS, type HttpLimits, type HttpTransport } from './http-transport.js';
export { jsonOrText } from './json-or-text.js';
export {
  assertHostAllowed,
  BlockedAddressError,
  isPublicAddress,
  type NetworkPolicy,
  type ResolveHost,
} from './network-guard.js';
export {
  type ClientSettings,
  type OAuth2AuthDefinition,
  type OAuth2Context,
  type OAuth2Data,
  OAuth2Error,
  type OAuth2Tokens,
  oauth2Auth,
} from './oauth2.js';
export { TemporaryError } from './temporary-error.js';
export { InvalidParametersError, parseParameters } from './validation.js';
