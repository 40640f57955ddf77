import { isFinished } from '../../domain/execution.js';
import { bodyProblem, headerNameProblem, headerValueProblem, statusProblem } from '../../domain/webhook-answer.js';
import { stepsOfRun } from '../../engine/version-steps.js';
import type { CoreDeps } from '../deps.js';

/** What a `/sync` webhook answers, from the run it started. */
export type WebhookResponse =
  | {
      readonly kind: 'respond';
      readonly statusCode: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: unknown;
    }
  /** The run ended early (a filter did not match). */
  | { readonly kind: 'filtered' }
  /** The run finished without a step that answers. */
  | { readonly kind: 'empty' }
  /** The run failed, or its answer is one HTTP cannot carry (stored before the step checked it). */
  | { readonly kind: 'failed' }
  /** Still running (waiting on a delay, or past the time limit). */
  | { readonly kind: 'pending' };

/** The steps that answer: the webhook app's "Respond with", and the forms app's for a form's page. */
const RESPONDING = new Set(['webhook.respondWith', 'forms.respondWith']);
const FILTER_APP = 'filter';

const asResponse = (output: unknown): WebhookResponse => {
  const data = (typeof output === 'object' && output !== null ? output : {}) as Record<string, unknown>;
  const statusCode = typeof data.statusCode === 'number' ? data.statusCode : 200;
  const given = typeof data.headers === 'object' && data.headers !== null ? data.headers : {};
  const headers = Object.fromEntries(
    Object.entries(given).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  const body = data.body ?? null;
  const sendable =
    statusProblem(statusCode) === null &&
    bodyProblem(statusCode, body !== null && body !== '') === null &&
    Object.entries(headers).every(([name, value]) => !headerNameProblem(name) && !headerValueProblem(name, value));
  return sendable ? { kind: 'respond', statusCode, headers, body } : { kind: 'failed' };
};

/** Reads the answer of a webhook's run: the last "respond with" step that ran, if any. */
export const makeGetWebhookResponse =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  async (executionId: string): Promise<WebhookResponse> => {
    const execution = await repos.executions.findById(executionId);
    if (!execution || !isFinished(execution.status)) return { kind: 'pending' };
    if (execution.status === 'failure') return { kind: 'failed' };
    const steps = await stepsOfRun(repos, execution);
    const recorded = await repos.executionSteps.listByExecution(executionId);
    const responding = new Set(steps.filter((s) => RESPONDING.has(`${s.appKey}.${s.key}`)).map((s) => s.id));
    // The last answer the run made, in the order it ran (a loop's last iteration, the branch taken).
    const last = recorded.filter((r) => r.status === 'success' && responding.has(r.stepId)).at(-1);
    if (last) return asResponse(last.dataOut);
    // A filter that did not match ends the run where it stands; paths not taken are no such end.
    const lastRecord = recorded.at(-1);
    const lastStep = steps.find((s) => s.id === lastRecord?.stepId);
    const filtered =
      lastStep?.appKey === FILTER_APP && (lastRecord?.dataOut as { matched?: unknown } | null)?.matched === false;
    return filtered ? { kind: 'filtered' } : { kind: 'empty' };
  };
