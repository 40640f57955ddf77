import { isFinished } from '../../domain/execution.js';
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
  | { readonly kind: 'failed' }
  /** Still running (waiting on a delay, or past the time limit). */
  | { readonly kind: 'pending' };

const RESPONDING_APP = 'webhook';
const RESPONDING_ACTION = 'respondWith';

const asResponse = (output: unknown): WebhookResponse => {
  const data = (typeof output === 'object' && output !== null ? output : {}) as Record<string, unknown>;
  const statusCode = typeof data.statusCode === 'number' ? data.statusCode : 200;
  const headers = (typeof data.headers === 'object' && data.headers !== null ? data.headers : {}) as Record<
    string,
    string
  >;
  return { kind: 'respond', statusCode, headers, body: data.body ?? null };
};

/** Reads the answer of a webhook's run: the last "respond with" step that ran, if any. */
export const makeGetWebhookResponse =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  async (executionId: string): Promise<WebhookResponse> => {
    const execution = await repos.executions.findById(executionId);
    if (!execution || !isFinished(execution.status)) return { kind: 'pending' };
    if (execution.status === 'failure') return { kind: 'failed' };
    const steps = await repos.steps.listByFlow(execution.flowId);
    const recorded = await repos.executionSteps.listByExecution(executionId);
    const ran = new Set(recorded.map((r) => r.stepId));
    const responding = steps.filter((s) => s.appKey === RESPONDING_APP && s.key === RESPONDING_ACTION && ran.has(s.id));
    const last = responding.at(-1);
    if (last) return asResponse(recorded.find((r) => r.stepId === last.id)?.dataOut);
    const allRan = steps.every((s) => ran.has(s.id));
    return allRan ? { kind: 'empty' } : { kind: 'filtered' };
  };
