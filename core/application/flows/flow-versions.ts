import type { Repositories } from '../../../ports/repositories.js';
import type { Actor } from '../../domain/actor.js';
import { type DomainError, invalidInput, notFound } from '../../domain/errors.js';
import {
  type ContentChanges,
  compareContents,
  type FlowContent,
  type FlowVersion,
  type FlowVersionSummary,
} from '../../domain/flow-version.js';
import type { Page, PageRequest } from '../../domain/page.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { type BasedOn, draftContent, editDraft, replaceDraft } from './draft.js';
import { type FlowView, reloadView, type ViewDeps } from './flow-views.js';
import { loadFlow } from './load-flow.js';

type Deps = Pick<CoreDeps, 'repos' | 'uow' | 'clock'> & ViewDeps;

/** The version, if it is one of the flow's (another flow's version is as good as missing). */
const versionOf = async (repos: Repositories, flowId: string, versionId: string) => {
  const version = await repos.flowVersions.findById(versionId);
  return version?.flowId === flowId ? ok(version) : err(notFound('Version'));
};

/** What `compare` compares: a version by id, or the draft as it is now. */
export type ComparedSide = { readonly versionId: string } | 'draft';

export interface Comparison {
  readonly from: { readonly versionId: string | null; readonly number: number | null };
  readonly to: { readonly versionId: string | null; readonly number: number | null };
  readonly changes: ContentChanges;
}

/** A flow's history: its versions, one version's steps, two contents compared. */
export const makeFlowHistory = ({ repos }: Pick<CoreDeps, 'repos'>) => {
  const content = async (flowId: string, name: string, side: ComparedSide) => {
    if (side === 'draft') {
      return ok({ content: await draftContent(repos, flowId, name), versionId: null, number: null });
    }
    const version = await versionOf(repos, flowId, side.versionId);
    return version.ok
      ? ok({ content: version.value as FlowContent, versionId: version.value.id, number: version.value.number })
      : version;
  };
  return {
    async list(
      actor: Actor,
      flowId: string,
      page: PageRequest,
    ): Promise<Result<Page<FlowVersionSummary>, DomainError>> {
      const loaded = await loadFlow(repos, actor, flowId, 'read');
      return loaded.ok ? ok(await repos.flowVersions.list(flowId, page)) : loaded;
    },

    async get(actor: Actor, flowId: string, versionId: string): Promise<Result<FlowVersion, DomainError>> {
      const loaded = await loadFlow(repos, actor, flowId, 'read');
      return loaded.ok ? versionOf(repos, flowId, versionId) : loaded;
    },

    async compare(
      actor: Actor,
      flowId: string,
      sides: { readonly from: ComparedSide; readonly to: ComparedSide },
    ): Promise<Result<Comparison, DomainError>> {
      const loaded = await loadFlow(repos, actor, flowId, 'read');
      if (!loaded.ok) return loaded;
      const from = await content(flowId, loaded.value.name, sides.from);
      if (!from.ok) return from;
      const to = await content(flowId, loaded.value.name, sides.to);
      if (!to.ok) return to;
      return ok({
        from: { versionId: from.value.versionId, number: from.value.number },
        to: { versionId: to.value.versionId, number: to.value.number },
        changes: compareContents(from.value.content, to.value.content),
      });
    },
  };
};

/**
 * The draft becomes a version's content: `restore` one of the history, `discard` the draft's
 * changes (back to the published version). Publishing it is a separate step.
 */
export const makeDraftReset = (deps: Deps) => {
  const reset = async (
    actor: Actor,
    flowId: string,
    pick: (repos: Repositories, publishedId: string | null) => Promise<Result<FlowVersion, DomainError>>,
    basedOn: BasedOn,
  ): Promise<Result<FlowView, DomainError>> => {
    const loaded = await loadFlow(deps.repos, actor, flowId, 'manage');
    if (!loaded.ok) return loaded;
    return deps.uow.run(async (tx) => {
      const now = deps.clock.now();
      const version = await pick(tx, loaded.value.publishedVersion?.id ?? null);
      if (!version.ok) return version;
      const reset = await editDraft(tx, flowId, basedOn, now, async () => {
        await replaceDraft(tx, flowId, version.value, now);
        await tx.flows.update(flowId, { draftBaseVersionId: version.value.id }, now);
        return ok(undefined);
      });
      return reset.ok ? reloadView(tx, deps, flowId) : reset;
    });
  };
  return {
    restore: (actor: Actor, flowId: string, versionId: string, basedOn?: BasedOn) =>
      reset(actor, flowId, (tx) => versionOf(tx, flowId, versionId), basedOn),

    discard: (actor: Actor, flowId: string, basedOn?: BasedOn) =>
      reset(
        actor,
        flowId,
        async (tx, publishedId) =>
          publishedId === null
            ? err(invalidInput({ general: ['The flow was never published: its draft is all there is.'] }))
            : versionOf(tx, flowId, publishedId),
        basedOn,
      ),
  };
};
