import type { FlowFilter } from '../../../ports/flow-repositories.js';
import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import type { FlowStatus } from '../../domain/flow.js';
import type { Page, PageRequest } from '../../domain/page.js';
import { err, ok, type Result } from '../../domain/result.js';
import { authorize, scopeOf } from '../../policy/index.js';
import { loadConnection } from '../connections/load-connection.js';
import type { CoreDeps } from '../deps.js';
import { type FlowView, pageOfViews, type ViewDeps } from './flow-views.js';

export interface FlowListQuery {
  readonly name?: string | undefined;
  readonly status?: Exclude<FlowStatus, 'paused'> | undefined;
  /** null: flows in no folder. */
  readonly folderId?: string | null | undefined;
  /** Only the caller's flows, even when their role may read everyone's. */
  readonly onlyOwnedFlows?: boolean | undefined;
}

type Deps = Pick<CoreDeps, 'repos' | 'apps'> & ViewDeps;

/** The flows the actor may read that match, most recently updated first, with their steps. */
const readableFlows = async (
  { repos, apps, billing }: Deps,
  actor: Actor,
  filter: Omit<FlowFilter, 'ownerId'> & { readonly onlyOwnedFlows?: boolean | undefined },
  page: PageRequest,
): Promise<Result<Page<FlowView>, DomainError>> => {
  const refused = authorize(actor, 'read', 'Flow');
  if (refused) return err(refused);
  const scope = scopeOf(actor, 'read', 'Flow');
  const { onlyOwnedFlows, ...rest } = filter;
  const ownerId = scope.kind === 'own' || onlyOwnedFlows ? actor.user.id : null;
  return ok(await pageOfViews(repos, { apps, billing }, await repos.flows.list({ ...rest, ownerId }, page)));
};

export const makeListFlows =
  (deps: Deps) =>
  (actor: Actor, query: FlowListQuery, page: PageRequest): Promise<Result<Page<FlowView>, DomainError>> =>
    readableFlows(
      deps,
      actor,
      {
        name: query.name,
        folderId: query.folderId,
        onlyOwnedFlows: query.onlyOwnedFlows,
        ...(query.status !== undefined && { active: query.status === 'published' }),
      },
      page,
    );

/** Flows with a step of the app. */
export const makeListFlowsUsingApp =
  (deps: Deps) =>
  async (actor: Actor, appKey: string, page: PageRequest): Promise<Result<Page<FlowView>, DomainError>> =>
    deps.apps.find(appKey) ? readableFlows(deps, actor, { appKey }, page) : err(notFound('App'));

/** Flows with a step using the connection, which the actor must be able to read. */
export const makeListFlowsUsingConnection =
  (deps: Deps) =>
  async (actor: Actor, connectionId: string, page: PageRequest): Promise<Result<Page<FlowView>, DomainError>> => {
    const connection = await loadConnection(deps.repos, actor, connectionId, 'read');
    return connection.ok ? readableFlows(deps, actor, { connectionId }, page) : connection;
  };
