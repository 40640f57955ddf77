import type { Execution } from '../../domain/execution.js';
import { isFinished } from '../../domain/execution.js';
import type { CoreDeps } from '../deps.js';

/**
 * The unfinished run a resume URL (`/webhooks/runs/:executionId/:token`) names, when its token is
 * the run's; null otherwise. A wrong token, an unknown run and a finished one are alike, so that
 * the URL tells a stranger nothing.
 */
export const runByToken = async (
  deps: Pick<CoreDeps, 'repos' | 'ids' | 'secrets'>,
  executionId: string,
  token: string,
): Promise<Execution | null> => {
  const { repos, secrets } = deps;
  const execution = await repos.executions.findById(executionId);
  if (!execution || isFinished(execution.status)) return null;
  // A run that never handed its URL out gets a token nobody knows, which the given one cannot match.
  const expected = await repos.executions.resumeToken(execution.id, deps.ids.next());
  return secrets.hash(expected) === secrets.hash(token) ? execution : null;
};
