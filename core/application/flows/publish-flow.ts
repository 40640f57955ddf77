import type { Repositories } from '../../../ports/repositories.js';
import type { Actor } from '../../domain/actor.js';
import { appCallFailed, type DomainError, draftStale, invalidInput, notFound } from '../../domain/errors.js';
import type { Flow } from '../../domain/flow.js';
import { publishRefusal } from '../../domain/flow-rules.js';
import type { FlowVersion } from '../../domain/flow-version.js';
import { err, ok, type Result } from '../../domain/result.js';
import { makeSyncFlowTrigger } from '../../engine/flow-triggers.js';
import type { CoreDeps } from '../deps.js';
import { currentStatus } from '../steps/step-status.js';
import { type BasedOn, draftContent } from './draft.js';
import { loadFlow } from './load-flow.js';

type Deps = Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps' | 'runner' | 'queue' | 'logger' | 'settings'>;

export interface PublishInput {
  readonly message?: string | undefined;
  /** The draft revision the publisher saw (`If-Match`). */
  readonly basedOn?: BasedOn;
}

/** What a publish did: a new version, or none (the draft had no changes; the flow is active again). */
export interface Published {
  readonly version: FlowVersion;
  readonly created: boolean;
}

/**
 * Makes the draft the flow's next version and the one it runs, and activates the flow. A draft
 * that does not differ from the published version makes no new version: an inactive flow runs
 * its published version again. Publishing re-checks every step against the apps as they are now,
 * so a step saved as completed that a later app version no longer accepts stops it.
 */
export const publishDraft = async (
  tx: Repositories,
  deps: Pick<CoreDeps, 'clock' | 'ids' | 'apps'>,
  flowId: string,
  by: string | null,
  input: PublishInput,
): Promise<Result<Published, DomainError>> => {
  await tx.flows.lock(flowId);
  const flow = await tx.flows.findById(flowId);
  if (!flow) return err(notFound('Flow'));
  if (input.basedOn !== undefined && input.basedOn !== flow.draftRevision) return err(draftStale(flow.draftRevision));
  const now = deps.clock.now();
  const published =
    flow.publishedVersion && !flow.hasDraftChanges ? await tx.flowVersions.findById(flow.publishedVersion.id) : null;
  if (published) {
    if (flow.active) return err(invalidInput({ general: ['The draft has no changes to publish.'] }));
    await tx.flows.update(flowId, { active: true, publishedAt: now }, now);
    return ok({ version: published, created: false });
  }
  const content = await draftContent(tx, flowId, flow.name);
  const steps = content.steps.map((step) => ({ ...step, status: currentStatus(deps.apps, step) }));
  const refused = publishRefusal(steps);
  if (refused) return err(refused);
  const version: FlowVersion = {
    id: deps.ids.next(),
    flowId,
    number: (await tx.flowVersions.lastNumber(flowId)) + 1,
    message: input.message?.trim() || null,
    publishedBy: by,
    name: content.name,
    steps,
    createdAt: now,
  };
  await tx.flowVersions.insert(version);
  await tx.flows.update(
    flowId,
    {
      active: true,
      publishedAt: now,
      publishedVersion: { id: version.id, number: version.number },
      draftBaseVersionId: version.id,
      draftChanged: false,
    },
    now,
  );
  return ok({ version, created: true });
};

/**
 * Makes a flow's trigger follow a publish just committed: schedules and listeners follow the stored
 * state (a start-up reconciliation mends a crash in between), and an instant trigger registers its
 * hook with its vendor. A vendor that refuses it undoes the activation: an active flow always has
 * its hook, so the flow is stopped again and the publish fails with the vendor's reason.
 */
export const followPublish = (deps: Deps) => {
  const syncTrigger = makeSyncFlowTrigger(deps);
  return async (flowId: string): Promise<Result<void, DomainError>> => {
    const synced = await syncTrigger(flowId);
    if (synced.ok) return ok(undefined);
    await deps.uow.run(async (tx) => {
      const flow = await tx.flows.findById(flowId);
      if (flow) await deactivate(tx, flow, deps.clock.now());
      return ok(undefined);
    });
    await syncTrigger(flowId);
    deps.logger.warn({ flowId, reason: synced.reason }, 'publish undone: the trigger’s webhook was not registered');
    return err(appCallFailed(`The trigger’s webhook could not be registered: ${synced.reason}`));
  };
};

/** Publishes the draft as the flow's next version (`POST /flows/:flowId/versions`). */
export const makePublishFlow = (deps: Deps) => {
  const follow = followPublish(deps);
  return async (actor: Actor, flowId: string, input: PublishInput): Promise<Result<Published, DomainError>> => {
    const loaded = await loadFlow(deps.repos, actor, flowId, 'manage');
    if (!loaded.ok) return loaded;
    const done = await deps.uow.run((tx) => publishDraft(tx, deps, flowId, actor.user.id, input));
    if (!done.ok) return done;
    const followed = await follow(flowId);
    return followed.ok ? done : followed;
  };
};

/** Stops a flow: it runs nothing until published again, and keeps its versions. */
export const deactivate = async (tx: Repositories, flow: Flow, now: Date): Promise<void> => {
  if (flow.active) await tx.flows.update(flow.id, { active: false }, now);
};
