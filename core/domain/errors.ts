/**
 * Every expected failure of the core, as plain values. Their words are in `error-messages.ts`, and
 * the HTTP adapter maps each code to a status in one exhaustive table, so adding a code here fails
 * to compile until it has both.
 */
export type FieldErrors = Readonly<Record<string, readonly string[]>>;

/**
 * Automatisch's names for refusals of a flow's tree (see step-tree.ts): an `input.invalid` that
 * carries one is answered with it as its type instead of `ValidationError`.
 */
export type InputErrorType = 'invalidParentStepStructuralTypeError' | 'invalidBranchConditionsError';

export type DomainError =
  | { readonly code: 'input.invalid'; readonly fields: FieldErrors; readonly type?: InputErrorType }
  | { readonly code: 'unique.violation'; readonly field: string }
  | { readonly code: 'auth.unauthenticated' }
  | { readonly code: 'auth.forbidden'; readonly reason: string }
  | { readonly code: 'auth.invalid_credentials' }
  | { readonly code: 'auth.rate_limited'; readonly retryAfterSeconds: number }
  /** The instance takes no more work for now (webhook intake's backlog is full). */
  | { readonly code: 'service.busy'; readonly retryAfterSeconds: number }
  | { readonly code: 'resource.not_found'; readonly resource: string }
  | { readonly code: 'user.last_admin' }
  | { readonly code: 'role.in_use'; readonly users: number }
  | { readonly code: 'role.saml_default'; readonly providers: number }
  | { readonly code: 'license.required' }
  | { readonly code: 'connection.verification_failed'; readonly reason: string }
  | { readonly code: 'flow.incomplete_steps' }
  | { readonly code: 'flow.insufficient_steps' }
  /** The write was based on an older revision of the flow's draft than the stored one. */
  | { readonly code: 'flow.draft_stale'; readonly revision: number }
  | { readonly code: 'step.trigger_not_deletable' }
  | { readonly code: 'app.call_failed'; readonly reason: string }
  | { readonly code: 'webhook.filtered' }
  /** An instant trigger refused a delivery: its signature does not verify. */
  | { readonly code: 'webhook.unverified'; readonly reason: string }
  | { readonly code: 'execution.failed'; readonly executionId: string }
  | { readonly code: 'billing.disabled' }
  | { readonly code: 'billing.quota_exceeded' }
  | { readonly code: 'billing.webhook_refused'; readonly reason: string };

export type DomainErrorCode = DomainError['code'];

export const invalidInput = (fields: FieldErrors, type?: InputErrorType): DomainError =>
  type === undefined ? { code: 'input.invalid', fields } : { code: 'input.invalid', fields, type };
export const uniqueViolation = (field: string): DomainError => ({ code: 'unique.violation', field });
export const unauthenticated = (): DomainError => ({ code: 'auth.unauthenticated' });
export const forbidden = (reason: string): DomainError => ({ code: 'auth.forbidden', reason });
export const invalidCredentials = (): DomainError => ({ code: 'auth.invalid_credentials' });
export const rateLimited = (retryAfterSeconds: number): DomainError => ({
  code: 'auth.rate_limited',
  retryAfterSeconds,
});
export const serviceBusy = (retryAfterSeconds: number): DomainError => ({ code: 'service.busy', retryAfterSeconds });
export const notFound = (resource: string): DomainError => ({ code: 'resource.not_found', resource });
export const lastAdmin = (): DomainError => ({ code: 'user.last_admin' });
export const roleInUse = (users: number): DomainError => ({ code: 'role.in_use', users });
export const roleIsSamlDefault = (providers: number): DomainError => ({ code: 'role.saml_default', providers });
export const licenseRequired = (): DomainError => ({ code: 'license.required' });
export const verificationFailed = (reason: string): DomainError => ({ code: 'connection.verification_failed', reason });
export const incompleteSteps = (): DomainError => ({ code: 'flow.incomplete_steps' });
export const insufficientSteps = (): DomainError => ({ code: 'flow.insufficient_steps' });
export const draftStale = (revision: number): DomainError => ({ code: 'flow.draft_stale', revision });
export const triggerNotDeletable = (): DomainError => ({ code: 'step.trigger_not_deletable' });
export const appCallFailed = (reason: string): DomainError => ({ code: 'app.call_failed', reason });
export const webhookFiltered = (): DomainError => ({ code: 'webhook.filtered' });
export const webhookUnverified = (reason: string): DomainError => ({ code: 'webhook.unverified', reason });
export const executionFailed = (executionId: string): DomainError => ({ code: 'execution.failed', executionId });
export const billingDisabled = (): DomainError => ({ code: 'billing.disabled' });
export const quotaExceeded = (): DomainError => ({ code: 'billing.quota_exceeded' });
export const webhookRefused = (reason: string): DomainError => ({ code: 'billing.webhook_refused', reason });

/** The message of anything thrown: an Error's own, or the value as text. */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));
