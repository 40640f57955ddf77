import type { IncomingRequest } from '../../../ports/step-runner.js';
import { type DomainError, type FieldErrors, notFound } from '../../domain/errors.js';
import type { Form } from '../../domain/form.js';
import { type FormAnswers, readAnswers, type SentValues } from '../../domain/form-answers.js';
import { err, ok, type Result } from '../../domain/result.js';
import { loadTriggered } from '../../engine/flow-triggers.js';
import type { CoreDeps } from '../deps.js';
import type { makeAcceptWebhook } from '../executions/accept-webhook.js';
import type { makeAnswerSyncWebhook, SyncWebhookAnswer } from '../executions/answer-sync-webhook.js';
import { FORM_TRIGGER } from './form-trigger.js';

/** What a visitor sent: the form's inputs, and the page's query parameters. */
export interface FormSubmission {
  readonly sent: SentValues;
  readonly extras: SentValues;
}

/** What the page shows once the answers are read. */
export type FormReply =
  /** The answers do not fit the form: nothing was started. */
  | { readonly kind: 'invalid'; readonly problems: FieldErrors }
  /** A flow's "Respond with" step answered. */
  | Extract<SyncWebhookAnswer, { kind: 'respond' }>
  /** A flow that does not wait sends the visitor on (its trigger's `asyncRedirectUrl`). */
  | { readonly kind: 'redirect'; readonly url: string }
  /** Taken: the form's response message, or null for the page's own thanks (a run still going). */
  | { readonly kind: 'received'; readonly message: string | null };

interface Deps extends Pick<CoreDeps, 'repos' | 'logger'> {
  readonly acceptWebhook: ReturnType<typeof makeAcceptWebhook>;
  readonly answerSyncWebhook: ReturnType<typeof makeAnswerSyncWebhook>;
  /** The intake gate's verdict on a call of the flow now, asked of every flow before any starts. */
  readonly refusal: (flowId: string) => DomainError | null;
}

interface Listener {
  readonly flowId: string;
  /** The trigger's `workSynchronously`, on unless set off (its default). */
  readonly waits: boolean;
  readonly redirectUrl: string | null;
}

const webAddress = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
};

/**
 * The owner's flows that listen for the form: those whose trigger (a published flow's published
 * one, a draft's own, as webhooks take them) is the forms app's and names this form. Oldest first.
 */
const listenersOf = async (deps: Pick<CoreDeps, 'repos'>, form: Form): Promise<Listener[]> => {
  const ids = await deps.repos.flows.listTriggeredByApp(form.userId, FORM_TRIGGER.appKey);
  const loaded = await Promise.all(ids.map((id) => loadTriggered(deps, id)));
  return loaded.flatMap((triggered) => {
    if (!triggered) return [];
    const { flow, trigger } = triggered;
    if (trigger.appKey !== FORM_TRIGGER.appKey || trigger.key !== FORM_TRIGGER.key) return [];
    const { formId, workSynchronously, asyncRedirectUrl } = trigger.parameters;
    if (formId !== form.id) return [];
    const waits = workSynchronously !== false && workSynchronously !== 'false';
    return [{ flowId: flow.id, waits, redirectUrl: webAddress(asyncRedirectUrl) }];
  });
};

/** A call the flow took, whatever its run did after: it was not refused. */
const taken = (result: Result<unknown, DomainError>) =>
  result.ok || result.error.code === 'webhook.filtered' || result.error.code === 'execution.failed';

/**
 * A visitor's answers on a form's public page. Read against the form first; then every flow that
 * listens for the form takes them as a webhook call of its own (the intake of `/webhooks/flows`,
 * with its gate, quota and test data for unpublished flows): the answers are the trigger's item.
 * Flows that wait (`workSynchronously`) run now, bounded by the synchronous webhook's time limit,
 * and the first "Respond with" among them is the reply; a run still going gets the page's thanks.
 * Otherwise a flow's redirect, else the form's response message. When the gate would refuse any
 * of the flows, none is started, so that the visitor's retry does not start some twice.
 */
export const makeSubmitForm =
  (deps: Deps) =>
  async (
    formId: string,
    submission: FormSubmission,
  ): Promise<Result<{ readonly form: Form; readonly reply: FormReply }, DomainError>> => {
    const form = await deps.repos.forms.findById(formId);
    if (!form) return err(notFound('Form'));
    const answers = readAnswers(form, submission.sent, submission.extras);
    if (!answers.ok) return ok({ form, reply: { kind: 'invalid', problems: answers.error } });
    const listeners = await listenersOf(deps, form);
    const refused = listeners.map((listener) => deps.refusal(listener.flowId)).find((refusal) => refusal !== null);
    if (refused) return err(refused);
    const outcomes = await Promise.all(listeners.map((listener) => deliver(deps, listener, answers.value)));
    const took = outcomes.filter((outcome) => taken(outcome.result));
    const [firstRefusal] = outcomes.filter((outcome) => !taken(outcome.result));
    if (took.length === 0 && firstRefusal && !firstRefusal.result.ok) return err(firstRefusal.result.error);
    for (const { listener, result } of outcomes) {
      if (!taken(result)) deps.logger.warn({ formId, flowId: listener.flowId }, 'a flow refused a form’s answers');
    }
    if (listeners.length === 0) deps.logger.info({ formId }, 'a form was answered, but no flow listens for it');
    return ok({ form, reply: replyOf(form, took) });
  };

type Outcome =
  | { readonly listener: Listener; readonly waited: true; readonly result: Result<SyncWebhookAnswer, DomainError> }
  | { readonly listener: Listener; readonly waited: false; readonly result: Result<unknown, DomainError> };

const deliver = async (deps: Deps, listener: Listener, answers: FormAnswers): Promise<Outcome> => {
  const request: IncomingRequest = { method: 'POST', headers: {}, query: {}, body: answers };
  return listener.waits
    ? { listener, waited: true, result: await deps.answerSyncWebhook(listener.flowId, request) }
    : { listener, waited: false, result: await deps.acceptWebhook(listener.flowId, request) };
};

const replyOf = (form: Form, took: readonly Outcome[]): FormReply => {
  const answered = took.flatMap((outcome) => (outcome.waited && outcome.result.ok ? [outcome.result.value] : []));
  const responded = answered.find((answer) => answer.kind === 'respond');
  if (responded) return responded;
  if (answered.some((answer) => answer.kind === 'pending')) return { kind: 'received', message: null };
  const redirect = took.find((outcome) => !outcome.waited && outcome.listener.redirectUrl)?.listener.redirectUrl;
  if (redirect) return { kind: 'redirect', url: redirect };
  return { kind: 'received', message: form.responseMessage };
};
