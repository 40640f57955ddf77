import type { ConnectionUse } from '../../ports/app-catalog.js';
import { connectionUse } from '../application/connections/connection-use.js';
import type { CoreDeps } from '../application/deps.js';
import type { Step } from '../domain/flow.js';

export type StepConnection =
  | { readonly ok: true; readonly value: ConnectionUse | null }
  | { readonly ok: false; readonly reason: string };

/** The connection a step runs with (null when its app needs none), or why it cannot run. */
export const stepConnection = async (
  deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'apps'>,
  step: Step,
): Promise<StepConnection> => {
  if (step.connectionId === null) return { ok: true, value: null };
  const stored = await deps.repos.connections.findById(step.connectionId);
  if (!stored) return { ok: false, reason: 'The step’s connection no longer exists.' };
  const use = await connectionUse(deps, stored);
  return use.ok ? use : { ok: false, reason: 'The step’s connection cannot be used: its OAuth client is gone.' };
};
