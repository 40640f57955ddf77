import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Failure } from './failures.js';

export interface RenderedError {
  readonly status: ContentfulStatusCode;
  readonly type: string;
  readonly errors: Readonly<Record<string, readonly string[]>>;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The instance cannot take the request now, whether the core or the edge says so. */
const busy = (retryAfterSeconds: number): RenderedError => ({
  status: 503,
  type: 'ServiceUnavailableError',
  errors: { general: [`The server is busy. Try again in ${retryAfterSeconds} seconds.`] },
  headers: { 'Retry-After': String(retryAfterSeconds) },
});

type Table = { readonly [K in Failure['code']]: (failure: Extract<Failure, { code: K }>) => RenderedError };

/**
 * The one place that decides the status and body of every failure. It is exhaustive over the
 * failure codes, so a new code does not compile until it has a row here.
 */
const TABLE: Table = {
  'input.invalid': (f) => ({ status: 422, type: 'ValidationError', errors: f.fields }),
  'unique.violation': (f) => ({
    status: 422,
    type: 'UniqueViolationError',
    errors: { [f.field]: [`'${f.field}' must be unique.`] },
  }),
  'auth.unauthenticated': () => ({
    status: 401,
    type: 'UnauthenticatedError',
    errors: { general: ['Authentication is required.'] },
  }),
  'billing.disabled': () => ({
    status: 404,
    type: 'NotFoundError',
    errors: { general: ['Billing is not enabled on this instance.'] },
  }),
  'billing.quota_exceeded': () => ({
    status: 422,
    type: 'QuotaExceededError',
    errors: { general: ["The flow's owner has used all the tasks of their plan for this period."] },
  }),
  'billing.webhook_refused': (f) => ({ status: 401, type: 'UnauthenticatedError', errors: { general: [f.reason] } }),
  'auth.forbidden': (f) => ({ status: 403, type: 'ForbiddenError', errors: { general: [f.reason] } }),
  'auth.invalid_credentials': () => ({
    status: 422,
    type: 'InvalidCredentialsError',
    errors: { general: ['Incorrect email or password.'] },
  }),
  'auth.rate_limited': (f) => ({
    status: 429,
    type: 'RateLimitedError',
    errors: { general: [`Too many attempts. Try again in ${f.retryAfterSeconds} seconds.`] },
    headers: { 'Retry-After': String(f.retryAfterSeconds) },
  }),
  'service.busy': (f) => busy(f.retryAfterSeconds),
  'resource.not_found': (f) => ({
    status: 404,
    type: 'NotFoundError',
    errors: { general: [`${f.resource} not found.`] },
  }),
  'user.last_admin': () => ({
    status: 422,
    type: 'LastAdminError',
    errors: { general: ['The last administrator cannot be removed.'] },
  }),
  'role.in_use': (f) => ({
    status: 422,
    type: 'RoleInUseError',
    errors: { general: [`The role is held by ${f.users} user(s); give them another role first.`] },
  }),
  'role.saml_default': (f) => ({
    status: 422,
    type: 'RoleInUseError',
    errors: {
      general: [`The role is the default role of ${f.providers} SAML provider(s); change their default first.`],
    },
  }),
  'license.required': () => ({
    status: 403,
    type: 'EnterpriseLicenseRequiredError',
    errors: { general: ['This feature needs a valid enterprise licence.'] },
  }),
  'connection.verification_failed': (f) => ({
    status: 422,
    type: 'ConnectionVerificationError',
    errors: { general: [f.reason] },
  }),
  'flow.incomplete_steps': () => ({
    status: 422,
    type: 'IncompleteStepsError',
    errors: { general: ['All steps must be completed before the flow is published.'] },
  }),
  'flow.insufficient_steps': () => ({
    status: 422,
    type: 'InsufficientStepsError',
    errors: { general: ['A flow needs a trigger and at least one action to be published.'] },
  }),
  'flow.published': () => ({
    status: 422,
    type: 'PublishedFlowError',
    errors: { general: ['The flow is published: unpublish it before changing its steps.'] },
  }),
  'step.trigger_not_deletable': () => ({
    status: 422,
    type: 'TriggerDeletionError',
    errors: { general: ['The trigger step cannot be deleted; change it instead.'] },
  }),
  'webhook.filtered': () => ({
    status: 422,
    type: 'FilteredError',
    errors: { general: ['The flow filtered this request out.'] },
  }),
  'execution.failed': (f) => ({
    status: 422,
    type: 'ExecutionFailedError',
    errors: { general: [`The flow's run failed; see execution ${f.executionId}.`] },
  }),
  'app.call_failed': (f) => ({ status: 422, type: 'AppCallError', errors: { general: [f.reason] } }),
  'http.bad_request': (f) => ({ status: 400, type: 'BadRequestError', errors: { general: [f.message] } }),
  'http.payload_too_large': (f) => ({
    status: 413,
    type: 'PayloadTooLargeError',
    errors: { general: [`The request body exceeds ${f.limitBytes} bytes.`] },
  }),
  'http.method_not_allowed': (f) => ({
    status: 405,
    type: 'MethodNotAllowedError',
    errors: { general: [`This address answers only ${f.allow}.`] },
    headers: { Allow: f.allow },
  }),
  'http.route_not_found': () => ({ status: 404, type: 'NotFoundError', errors: { general: ['Not found.'] } }),
  'http.service_unavailable': (f) => busy(f.retryAfterSeconds),
};

/** The API's error envelope (API.md §2). */
export const errorBody = ({ type, errors }: RenderedError) => ({ errors, meta: { type } });

export const renderFailure = (failure: Failure): RenderedError =>
  (TABLE[failure.code] as (f: Failure) => RenderedError)(failure);

export const INTERNAL_ERROR: RenderedError = {
  status: 500,
  type: 'InternalError',
  errors: { general: ['Something went wrong. The server log has the details under this request id.'] },
};
