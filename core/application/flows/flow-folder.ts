import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import type { Folder } from '../../domain/flow.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { type FlowView, reloadView, type ViewDeps } from './flow-views.js';
import { loadFlow } from './load-flow.js';

export const makeGetFlowFolder =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  async (actor: Actor, flowId: string): Promise<Result<Folder, DomainError>> => {
    const loaded = await loadFlow(repos, actor, flowId, 'read');
    if (!loaded.ok) return loaded;
    const folder = loaded.value.folderId ? await repos.folders.findById(loaded.value.folderId) : null;
    return folder ? ok(folder) : err(notFound('Folder'));
  };

/** Files a flow in one of the caller's own folders, or in none (`null`). */
export const makeUpdateFlowFolder =
  ({ repos, uow, clock, apps, billing }: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'apps'> & ViewDeps) =>
  async (actor: Actor, flowId: string, input: { readonly folderId: string | null }) => {
    const loaded = await loadFlow(repos, actor, flowId, 'manage');
    if (!loaded.ok) return loaded;
    return uow.run(async (tx): Promise<Result<FlowView, DomainError>> => {
      if (input.folderId !== null) {
        const folder = await tx.folders.findById(input.folderId);
        if (folder?.userId !== actor.user.id) return err(notFound('Folder'));
      }
      await tx.flows.update(flowId, { folderId: input.folderId }, clock.now());
      return reloadView(tx, { apps, billing }, flowId);
    });
  };
