import type { SignalKind } from '../../../ports/step-runner.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { isFinished } from '../../domain/execution.js';
import { err, ok, type Result } from '../../domain/result.js';
import { wakeRun } from '../../engine/wake-run.js';
import type { CoreDeps } from '../deps.js';

type Deps = Pick<CoreDeps, 'repos' | 'queue' | 'clock' | 'ids' | 'secrets'>;

interface ResumeUrl {
  readonly executionId: string;
  readonly token: string;
}

/**
 * The run a resume URL names, when the token is its and it has not finished. A wrong token, an
 * unknown run and a finished one are all "not found", so that the URL tells a stranger nothing.
 */
const resumable = async (deps: Pick<CoreDeps, 'repos' | 'ids' | 'secrets'>, input: ResumeUrl) => {
  const { repos, secrets } = deps;
  const execution = await repos.executions.findById(input.executionId);
  if (!execution || isFinished(execution.status)) return null;
  // A run that never handed its URL out gets a token nobody knows, which the given one cannot match.
  const token = await repos.executions.resumeToken(execution.id, deps.ids.next());
  return secrets.hash(token) === secrets.hash(input.token) ? execution : null;
};

/**
 * Whether a resume URL still leads to its run, changing nothing: the pages under it (an approval's
 * confirmation) ask before they offer to answer.
 */
export const makeCheckResumeUrl =
  (deps: Pick<CoreDeps, 'repos' | 'ids' | 'secrets'>) =>
  async (input: ResumeUrl): Promise<Result<{ readonly executionId: string }, DomainError>> => {
    const execution = await resumable(deps, input);
    return execution ? ok({ executionId: execution.id }) : err(notFound('Execution'));
  };

/**
 * Something from outside reached a run through its resume URL (`/webhooks/runs/:id/:token`): a
 * request, an approval, a form's answers. The signal is kept (a step that waits for it takes it,
 * now or when the run gets there) and the run is woken.
 */
export const makeSignalRun =
  (deps: Deps) =>
  async (
    input: ResumeUrl & { readonly kind: SignalKind; readonly payload: unknown },
  ): Promise<Result<{ readonly executionId: string }, DomainError>> => {
    const execution = await resumable(deps, input);
    if (!execution) return err(notFound('Execution'));
    await deps.repos.runSignals.add({
      id: deps.ids.ordered(),
      executionId: execution.id,
      kind: input.kind,
      payload: input.payload,
      now: deps.clock.now(),
    });
    await wakeRun(deps, execution.id);
    return ok({ executionId: execution.id });
  };
