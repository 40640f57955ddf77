import type { ConnectionUse } from '../../ports/app-catalog.js';
import type { Step } from '../domain/flow.js';
import { connectionUse } from './connection-use.js';
import type { EngineDeps } from './deps.js';

export type StepConnection =
  | { readonly ok: true; readonly value: ConnectionUse | null }
  | { readonly ok: false; readonly reason: string };

/** The connection a step runs with (null when its app needs none), or why it cannot run. */
export const stepConnection = async (
  deps: Pick<EngineDeps, 'repos' | 'uow' | 'clock' | 'apps'>,
  step: Pick<Step, 'connectionId'>,
): Promise<StepConnection> => {
  if (step.connectionId === null) return { ok: true, value: null };
  const stored = await deps.repos.connections.findById(step.connectionId);
  if (!stored) return { ok: false, reason: 'The step’s connection no longer exists.' };
  if (stored.ownerRemoved) return { ok: false, reason: 'The step’s connection belonged to a removed user.' };
  const use = await connectionUse(deps, stored);
  return use.ok ? use : { ok: false, reason: 'The step’s connection cannot be used: its OAuth client is gone.' };
};
