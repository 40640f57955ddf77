import type { SignalKind } from '../../../ports/step-runner.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { wakeRun } from '../../engine/wake-run.js';
import type { CoreDeps } from '../deps.js';
import { runByToken } from './run-by-token.js';

/**
 * Something from outside reached a run through its resume URL (`/webhooks/runs/:id/:token`): a
 * request, an approval, a form's answers. The signal is kept (a step that waits for it takes it,
 * now or when the run gets there) and the run is woken. A wrong token, an unknown run and a
 * finished one are all "not found", so that the URL tells a stranger nothing.
 */
export const makeSignalRun =
  (deps: Pick<CoreDeps, 'repos' | 'queue' | 'clock' | 'ids' | 'secrets'>) =>
  async (input: {
    readonly executionId: string;
    readonly token: string;
    readonly kind: SignalKind;
    readonly payload: unknown;
  }): Promise<Result<{ readonly executionId: string }, DomainError>> => {
    const execution = await runByToken(deps, input.executionId, input.token);
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
