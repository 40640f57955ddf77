import type { DomainError, DomainErrorCode, FieldErrors } from './errors.js';

const general = (message: string): FieldErrors => ({ general: [message] });

type Messages = { readonly [K in DomainErrorCode]: (error: Extract<DomainError, { code: K }>) => FieldErrors };

/**
 * What each failure says, by field (`general` when it concerns no one field), whichever adapter
 * shows it: the HTTP error body and the CLI's error line say the same. Exhaustive over the codes,
 * so a new code does not compile until it has its words here.
 */
const MESSAGES: Messages = {
  'input.invalid': (e) => e.fields,
  'unique.violation': (e) => ({ [e.field]: [`'${e.field}' must be unique.`] }),
  'auth.unauthenticated': () => general('Authentication is required.'),
  'auth.forbidden': (e) => general(e.reason),
  'auth.invalid_credentials': () => general('Incorrect email or password.'),
  'auth.rate_limited': (e) => general(`Too many attempts. Try again in ${e.retryAfterSeconds} seconds.`),
  'service.busy': (e) => general(`The server is busy. Try again in ${e.retryAfterSeconds} seconds.`),
  'resource.not_found': (e) => general(`${e.resource} not found.`),
  'user.last_admin': () => general('The last administrator cannot be removed.'),
  'role.in_use': (e) => general(`The role is held by ${e.users} user(s); give them another role first.`),
  'role.saml_default': (e) =>
    general(`The role is the default role of ${e.providers} SAML provider(s); change their default first.`),
  'license.required': () => general('This feature needs a valid enterprise licence.'),
  'connection.verification_failed': (e) => general(e.reason),
  'flow.incomplete_steps': () => general('All steps must be completed before the flow is published.'),
  'flow.insufficient_steps': () => general('A flow needs a trigger and at least one action to be published.'),
  'flow.draft_stale': (e) =>
    general(
      `The flow was changed by someone else (it is at revision ${e.revision}): reload it, then make your change again.`,
    ),
  'step.trigger_not_deletable': () => general('The trigger step cannot be deleted; change it instead.'),
  'app.call_failed': (e) => general(e.reason),
  'webhook.filtered': () => general('The flow filtered this request out.'),
  'webhook.unverified': (e) => general(e.reason),
  'execution.failed': (e) => general(`The flow's run failed; see execution ${e.executionId}.`),
  'billing.disabled': () => general('Billing is not enabled on this instance.'),
  'billing.quota_exceeded': () => general("The flow's owner has used all the tasks of their plan for this period."),
  'billing.webhook_refused': (e) => general(e.reason),
};

export const errorMessages = (error: DomainError): FieldErrors =>
  (MESSAGES[error.code] as (error: DomainError) => FieldErrors)(error);
