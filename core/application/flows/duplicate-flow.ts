import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { copyName } from '../../domain/flow.js';
import { copySteps } from '../../domain/flow-rules.js';
import { err, ok, type Result } from '../../domain/result.js';
import { authorize } from '../../policy/authorize.js';
import { loadConnection } from '../connections/load-connection.js';
import type { CoreDeps } from '../deps.js';
import type { FlowView, ViewDeps } from './flow-views.js';
import { insertFlow } from './insert-flow.js';
import { loadFlow } from './load-flow.js';

/**
 * A copy of a flow the caller can read, owned by the caller, unpublished, named "Copy of …", with
 * references between its steps following the copies. Steps keep connections the caller may read
 * (others are dropped, leaving the step incomplete), and the copy stays in the folder only if that
 * folder is the caller's.
 */
export const makeDuplicateFlow =
  (deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps'> & ViewDeps) =>
  async (actor: Actor, flowId: string): Promise<Result<FlowView, DomainError>> => {
    const { repos } = deps;
    // Unreadable flows are not found; the copy is a new flow, which the caller must be able to manage.
    const loaded = await loadFlow(repos, actor, flowId, 'read');
    if (!loaded.ok) return loaded;
    const refused = authorize(actor, 'manage', 'Flow');
    if (refused) return err(refused);
    const flow = loaded.value;
    const steps = await repos.steps.listByFlow(flowId);

    const readable = new Set<string>();
    for (const id of new Set(steps.flatMap((s) => (s.connectionId ? [s.connectionId] : [])))) {
      if ((await loadConnection(repos, actor, id, 'read')).ok) readable.add(id);
    }
    const copies = copySteps(
      steps.map((s) => ({
        ...s,
        connectionId: s.connectionId && readable.has(s.connectionId) ? s.connectionId : null,
      })),
      () => deps.ids.next(),
    );
    const folder = flow.folderId ? await repos.folders.findById(flow.folderId) : null;
    const folderId = folder?.userId === actor.user.id ? folder.id : null;
    return deps.uow.run(async (tx) =>
      ok(await insertFlow(tx, deps, { ownerId: actor.user.id, name: copyName(flow.name), folderId, steps: copies })),
    );
  };
