import { describe, expect, it } from 'vitest';
import { INTERNAL_ERROR, renderFailure } from './error-table.js';
import type { Failure } from './failures.js';

/** One example of every failure; adding a code without an example here does not compile. */
const EXAMPLES: { readonly [K in Failure['code']]: Extract<Failure, { code: K }> } = {
  'input.invalid': { code: 'input.invalid', fields: { email: ['is required.'], 'profile.name': ['is required.'] } },
  'unique.violation': { code: 'unique.violation', field: 'email' },
  'auth.unauthenticated': { code: 'auth.unauthenticated' },
  'auth.forbidden': { code: 'auth.forbidden', reason: 'You can only change your own account.' },
  'auth.invalid_credentials': { code: 'auth.invalid_credentials' },
  'auth.rate_limited': { code: 'auth.rate_limited', retryAfterSeconds: 42 },
  'service.busy': { code: 'service.busy', retryAfterSeconds: 1 },
  'resource.not_found': { code: 'resource.not_found', resource: 'User' },
  'user.last_admin': { code: 'user.last_admin' },
  'role.in_use': { code: 'role.in_use', users: 3 },
  'role.saml_default': { code: 'role.saml_default', providers: 1 },
  'license.required': { code: 'license.required' },
  'connection.verification_failed': { code: 'connection.verification_failed', reason: 'Bad credentials' },
  'flow.incomplete_steps': { code: 'flow.incomplete_steps' },
  'flow.insufficient_steps': { code: 'flow.insufficient_steps' },
  'flow.draft_stale': { code: 'flow.draft_stale', revision: 4 },
  'step.trigger_not_deletable': { code: 'step.trigger_not_deletable' },
  'webhook.filtered': { code: 'webhook.filtered' },
  'webhook.unverified': { code: 'webhook.unverified', reason: 'The webhook signature does not verify.' },
  'execution.failed': { code: 'execution.failed', executionId: '0b6f1c1e-1111-4aaa-8bbb-000000000001' },
  'app.call_failed': { code: 'app.call_failed', reason: 'The server said no.' },
  'billing.disabled': { code: 'billing.disabled' },
  'billing.quota_exceeded': { code: 'billing.quota_exceeded' },
  'billing.webhook_refused': { code: 'billing.webhook_refused', reason: 'The signature does not match.' },
  'http.bad_request': { code: 'http.bad_request', message: 'The request body is not valid JSON.' },
  'http.payload_too_large': { code: 'http.payload_too_large', limitBytes: 1024 },
  'http.method_not_allowed': { code: 'http.method_not_allowed', allow: 'POST' },
  'http.route_not_found': { code: 'http.route_not_found' },
  'http.service_unavailable': { code: 'http.service_unavailable', retryAfterSeconds: 1 },
};

/** Status and meta type of every code, as API.md §3 documents them. */
const DOCUMENTED: { readonly [K in Failure['code']]: readonly [status: number, type: string] } = {
  'input.invalid': [422, 'ValidationError'],
  'unique.violation': [422, 'UniqueViolationError'],
  'auth.unauthenticated': [401, 'UnauthenticatedError'],
  'auth.forbidden': [403, 'ForbiddenError'],
  'auth.invalid_credentials': [422, 'InvalidCredentialsError'],
  'auth.rate_limited': [429, 'RateLimitedError'],
  'service.busy': [503, 'ServiceUnavailableError'],
  'resource.not_found': [404, 'NotFoundError'],
  'user.last_admin': [422, 'LastAdminError'],
  'role.in_use': [422, 'RoleInUseError'],
  'role.saml_default': [422, 'RoleInUseError'],
  'license.required': [403, 'EnterpriseLicenseRequiredError'],
  'connection.verification_failed': [422, 'ConnectionVerificationError'],
  'flow.incomplete_steps': [422, 'IncompleteStepsError'],
  'flow.insufficient_steps': [422, 'InsufficientStepsError'],
  'flow.draft_stale': [409, 'DraftConflictError'],
  'step.trigger_not_deletable': [422, 'TriggerDeletionError'],
  'webhook.filtered': [422, 'FilteredError'],
  'webhook.unverified': [401, 'UnauthenticatedError'],
  'execution.failed': [422, 'ExecutionFailedError'],
  'app.call_failed': [422, 'AppCallError'],
  'billing.disabled': [404, 'NotFoundError'],
  'billing.quota_exceeded': [422, 'QuotaExceededError'],
  'billing.webhook_refused': [401, 'UnauthenticatedError'],
  'http.bad_request': [400, 'BadRequestError'],
  'http.payload_too_large': [413, 'PayloadTooLargeError'],
  'http.method_not_allowed': [405, 'MethodNotAllowedError'],
  'http.route_not_found': [404, 'NotFoundError'],
  'http.service_unavailable': [503, 'ServiceUnavailableError'],
};

const codes = Object.keys(EXAMPLES) as Failure['code'][];

describe('renderFailure', () => {
  it.each(codes)('renders %s with its documented status and type', (code) => {
    const rendered = renderFailure(EXAMPLES[code]);
    const [status, type] = DOCUMENTED[code];
    expect(rendered.status).toBe(status);
    expect(rendered.type).toBe(type);
  });

  it.each(codes)('renders %s with at least one message per field', (code) => {
    const { errors } = renderFailure(EXAMPLES[code]);
    expect(Object.keys(errors).length).toBeGreaterThan(0);
    for (const messages of Object.values(errors)) {
      expect(messages.length).toBeGreaterThan(0);
      for (const message of messages) expect(message).toEqual(expect.any(String));
    }
  });

  it('passes validation field errors through unchanged, dotted paths included', () => {
    const fields = { email: ['is required.'], 'address.city': ['must be a string.', 'is required.'] };
    expect(renderFailure({ code: 'input.invalid', fields })).toEqual({
      status: 422,
      type: 'ValidationError',
      errors: fields,
    });
  });

  it("answers a refusal of a flow's tree with Automatisch's error type, still as a 422 with its fields", () => {
    const fields = { branchConditions: ['has an unknown operator.'] };
    expect(renderFailure({ code: 'input.invalid', fields, type: 'invalidBranchConditionsError' })).toEqual({
      status: 422,
      type: 'invalidBranchConditionsError',
      errors: fields,
    });
    const parent = {
      code: 'input.invalid',
      fields: { parentStepId: ['x'] },
      type: 'invalidParentStepStructuralTypeError',
    };
    expect(renderFailure(parent as Failure).type).toBe('invalidParentStepStructuralTypeError');
  });

  it('names the field of a unique violation', () => {
    expect(renderFailure({ code: 'unique.violation', field: 'email' })).toEqual({
      status: 422,
      type: 'UniqueViolationError',
      errors: { email: ["'email' must be unique."] },
    });
    expect(renderFailure({ code: 'unique.violation', field: 'fullName' }).errors).toEqual({
      fullName: ["'fullName' must be unique."],
    });
  });

  it('renders the forbidden reason under general', () => {
    expect(renderFailure({ code: 'auth.forbidden', reason: 'Admins only.' })).toEqual({
      status: 403,
      type: 'ForbiddenError',
      errors: { general: ['Admins only.'] },
    });
  });

  it('sends Retry-After with a rate-limited or busy answer, Allow with a refused method, ETag with a stale draft, and headers nowhere else', () => {
    const rendered = renderFailure({ code: 'auth.rate_limited', retryAfterSeconds: 42 });
    expect(rendered.status).toBe(429);
    expect(rendered.headers).toEqual({ 'Retry-After': '42' });
    expect(rendered.errors.general?.[0]).toContain('42 seconds');
    expect(renderFailure({ code: 'http.method_not_allowed', allow: 'POST' }).headers).toEqual({ Allow: 'POST' });
    const busy = renderFailure({ code: 'http.service_unavailable', retryAfterSeconds: 1 });
    expect([busy.status, busy.type, busy.headers]).toEqual([503, 'ServiceUnavailableError', { 'Retry-After': '1' }]);

    expect(renderFailure({ code: 'service.busy', retryAfterSeconds: 1 })).toEqual(busy);

    const stale = renderFailure({ code: 'flow.draft_stale', revision: 7 });
    expect([stale.status, stale.type, stale.headers]).toEqual([409, 'DraftConflictError', { ETag: '"7"' }]);

    const withHeaders = [
      'auth.rate_limited',
      'service.busy',
      'http.method_not_allowed',
      'http.service_unavailable',
      'flow.draft_stale',
    ];
    for (const code of codes.filter((c) => !withHeaders.includes(c))) {
      expect(renderFailure(EXAMPLES[code]).headers).toBeUndefined();
    }
  });

  it('names the missing resource in a 404', () => {
    expect(renderFailure({ code: 'resource.not_found', resource: 'Flow' })).toEqual({
      status: 404,
      type: 'NotFoundError',
      errors: { general: ['Flow not found.'] },
    });
  });

  it('renders the edge failures', () => {
    expect(renderFailure({ code: 'http.bad_request', message: 'Bad JSON.' })).toEqual({
      status: 400,
      type: 'BadRequestError',
      errors: { general: ['Bad JSON.'] },
    });
    const tooLarge = renderFailure({ code: 'http.payload_too_large', limitBytes: 1_048_576 });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.type).toBe('PayloadTooLargeError');
    expect(tooLarge.errors.general?.[0]).toContain('1048576');
  });

  it('keeps credentials failures vague', () => {
    expect(renderFailure({ code: 'auth.unauthenticated' }).errors).toEqual({
      general: ['Authentication is required.'],
    });
    expect(renderFailure({ code: 'auth.invalid_credentials' }).errors).toEqual({
      general: ['Incorrect email or password.'],
    });
  });
});

describe('INTERNAL_ERROR', () => {
  it('is a 500 InternalError without details', () => {
    expect(INTERNAL_ERROR.status).toBe(500);
    expect(INTERNAL_ERROR.type).toBe('InternalError');
    expect(Object.keys(INTERNAL_ERROR.errors)).toEqual(['general']);
  });
});
