import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { runByToken } from './run-by-token.js';

/**
 * Whether a resume URL still leads to its run, changing nothing: the pages under it (an approval's
 * confirmation) ask before they offer to answer. Not found as for `signalRun`.
 */
export const makeCheckResumeUrl =
  (deps: Pick<CoreDeps, 'repos' | 'ids' | 'secrets'>) =>
  async (input: {
    readonly executionId: string;
    readonly token: string;
  }): Promise<Result<{ readonly executionId: string }, DomainError>> => {
    const execution = await runByToken(deps, input.executionId, input.token);
    return execution ? ok({ executionId: execution.id }) : err(notFound('Execution'));
  };
