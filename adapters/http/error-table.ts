import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorMessages } from '../../core/domain/error-messages.js';
import { type DomainError, serviceBusy } from '../../core/domain/errors.js';
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
  errors: errorMessages(serviceBusy(retryAfterSeconds)),
  headers: { 'Retry-After': String(retryAfterSeconds) },
});

type Table = { readonly [K in Failure['code']]: (failure: Extract<Failure, { code: K }>) => RenderedError };

/** The row of a core failure: its status and type here, its words the domain's. */
const core =
  (status: ContentfulStatusCode, type: string) =>
  (failure: DomainError): RenderedError => ({ status, type, errors: errorMessages(failure) });

/**
 * The one place that decides the status and body of every failure. It is exhaustive over the
 * failure codes, so a new code does not compile until it has a row here. A core failure's words
 * are the domain's (`errorMessages`); only the edge's own failures are worded here.
 */
const TABLE: Table = {
  'input.invalid': (f) => core(422, f.type ?? 'ValidationError')(f),
  'unique.violation': core(422, 'UniqueViolationError'),
  'auth.unauthenticated': core(401, 'UnauthenticatedError'),
  'billing.disabled': core(404, 'NotFoundError'),
  'billing.quota_exceeded': core(422, 'QuotaExceededError'),
  'billing.webhook_refused': core(401, 'UnauthenticatedError'),
  'auth.forbidden': core(403, 'ForbiddenError'),
  'auth.invalid_credentials': core(422, 'InvalidCredentialsError'),
  'auth.rate_limited': (f) => ({
    ...core(429, 'RateLimitedError')(f),
    headers: { 'Retry-After': String(f.retryAfterSeconds) },
  }),
  'service.busy': (f) => busy(f.retryAfterSeconds),
  'resource.not_found': core(404, 'NotFoundError'),
  'user.last_admin': core(422, 'LastAdminError'),
  'role.in_use': core(422, 'RoleInUseError'),
  'role.saml_default': core(422, 'RoleInUseError'),
  'license.required': core(403, 'EnterpriseLicenseRequiredError'),
  'connection.verification_failed': core(422, 'ConnectionVerificationError'),
  'flow.incomplete_steps': core(422, 'IncompleteStepsError'),
  'flow.insufficient_steps': core(422, 'InsufficientStepsError'),
  'flow.draft_stale': (f) => ({ ...core(409, 'DraftConflictError')(f), headers: { ETag: `"${f.revision}"` } }),
  'step.trigger_not_deletable': core(422, 'TriggerDeletionError'),
  'webhook.filtered': core(422, 'FilteredError'),
  'webhook.unverified': core(401, 'UnauthenticatedError'),
  'execution.failed': core(422, 'ExecutionFailedError'),
  'app.call_failed': core(422, 'AppCallError'),
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
