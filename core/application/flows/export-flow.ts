import type { Repositories } from '../../../ports/repositories.js';
import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { type ExportDocument, exportDocument } from '../../domain/export-document.js';
import type { Flow } from '../../domain/flow.js';
import { ok, type Result } from '../../domain/result.js';
import { definitionOf } from '../../engine/step-definition.js';
import type { CoreDeps } from '../deps.js';
import { loadFlow } from './load-flow.js';

/** The export document of a stored flow (fresh ids; no connections, status or owner). */
export const documentOf = async (
  repos: Repositories,
  deps: Pick<CoreDeps, 'apps' | 'ids'>,
  flow: Flow,
): Promise<ExportDocument> =>
  exportDocument(
    flow.name,
    await repos.steps.listByFlow(flow.id),
    () => deps.ids.next(),
    (step) => definitionOf(deps.apps, step)?.description.type,
  );

export const makeExportFlow =
  (deps: Pick<CoreDeps, 'repos' | 'apps' | 'ids'>) =>
  async (actor: Actor, flowId: string): Promise<Result<ExportDocument, DomainError>> => {
    const loaded = await loadFlow(deps.repos, actor, flowId, 'read');
    return loaded.ok ? ok(await documentOf(deps.repos, deps, loaded.value)) : loaded;
  };
