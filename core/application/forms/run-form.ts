import { type DomainError, notFound } from '../../domain/errors.js';
import type { Form } from '../../domain/form.js';
import { readAnswers } from '../../domain/form-answers.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { runByToken } from '../executions/run-by-token.js';
import type { makeSignalRun } from '../executions/signal-run.js';
import type { FormReply, FormSubmission } from './submit-form.js';

/** Which form of which waiting run: what a run's form link (`<resume URL>/forms/:formId`) names. */
export interface RunFormAddress {
  readonly executionId: string;
  readonly token: string;
  readonly formId: string;
}

type Deps = Pick<CoreDeps, 'repos' | 'ids' | 'secrets'>;

/**
 * The form a waiting run asks to be filled in: the run is unfinished and the token is its own, and
 * the form belongs to the run's flow's owner. Anything else is not found, as for `signalRun`.
 */
const loadRunForm = async (deps: Deps, address: RunFormAddress): Promise<Result<Form, DomainError>> => {
  const run = await runByToken(deps, address.executionId, address.token);
  if (!run) return err(notFound('Execution'));
  const [flow, form] = await Promise.all([
    deps.repos.flows.findById(run.flowId),
    deps.repos.forms.findById(address.formId),
  ]);
  return form && flow && form.userId === flow.userId ? ok(form) : err(notFound('Form'));
};

export const makeGetRunForm = (deps: Deps) => (address: RunFormAddress) => loadRunForm(deps, address);

/**
 * A visitor's answers to a waiting run's form: read against the form, then handed to the run as a
 * `form` signal (`{ formId, answers }`) that the waiting step takes. The page then shows the form's
 * response message.
 */
export const makeAnswerRunForm =
  (deps: Deps & { readonly signalRun: ReturnType<typeof makeSignalRun> }) =>
  async (
    address: RunFormAddress,
    submission: FormSubmission,
  ): Promise<Result<{ readonly form: Form; readonly reply: FormReply }, DomainError>> => {
    const loaded = await loadRunForm(deps, address);
    if (!loaded.ok) return loaded;
    const form = loaded.value;
    const answers = readAnswers(form, submission.sent, submission.extras);
    if (!answers.ok) return ok({ form, reply: { kind: 'invalid', problems: answers.error } });
    const signalled = await deps.signalRun({
      executionId: address.executionId,
      token: address.token,
      kind: 'form',
      payload: { formId: form.id, answers: answers.value },
    });
    if (!signalled.ok) return signalled;
    return ok({ form, reply: { kind: 'received', message: form.responseMessage } });
  };
