import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { type FlowView, flowView, type ViewDeps } from './flow-views.js';
import { loadFlow } from './load-flow.js';

export const makeGetFlow =
  ({ repos, apps, billing }: Pick<CoreDeps, 'repos' | 'apps'> & ViewDeps) =>
  async (actor: Actor, flowId: string): Promise<Result<FlowView, DomainError>> => {
    const loaded = await loadFlow(repos, actor, flowId, 'read');
    return loaded.ok ? ok(await flowView(repos, { apps, billing }, loaded.value)) : loaded;
  };
