import type { Repositories } from '../../../ports/repositories.js';
import type { Actor } from '../../domain/actor.js';
import { errorMessages } from '../../domain/error-messages.js';
import { type DomainError, invalidInput } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { authorize } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';
import { editDraft, replaceDraft } from './draft.js';
import {
  type FilePlan,
  type FlowFileInput,
  type FlowFilesPlan,
  type FlowPart,
  planFlowFiles,
} from './flow-file-plan.js';
import { deactivate, followPublish, publishDraft } from './publish-flow.js';

type Deps = Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps' | 'runner' | 'queue' | 'logger' | 'settings'>;

export type { FlowFileInput } from './flow-file-plan.js';

/** What applying a file did (on a dry run: would do). */
export interface AppliedFlow {
  readonly fileName: string;
  readonly key: string;
  readonly name: string;
  /** Null for a flow a dry run would create. */
  readonly flowId: string | null;
  readonly outcome: 'created' | 'updated' | 'unchanged';
  readonly changes: readonly FlowPart[];
  /** Published as a new version (`created`), or its published version runs again. */
  readonly published: { readonly version: number; readonly created: boolean } | null;
  readonly deactivated: boolean;
}

export interface ApplyReport {
  readonly dryRun: boolean;
  /** In the order of the files given. */
  readonly flows: readonly AppliedFlow[];
  /** Folders of the files that the owner did not have. */
  readonly createdFolders: readonly string[];
  readonly leftAlone: FlowFilesPlan['leftAlone'];
}

const outcomeOf = (plan: FilePlan): AppliedFlow['outcome'] =>
  !plan.flow
    ? 'created'
    : plan.changes.length > 0 || plan.publish !== null || plan.deactivate
      ? 'updated'
      : 'unchanged';

const reported = (plan: FilePlan, flowId: string | null, published: AppliedFlow['published']): AppliedFlow => ({
  fileName: plan.input.fileName,
  key: plan.input.file.key,
  name: plan.input.file.name,
  flowId,
  outcome: outcomeOf(plan),
  changes: plan.changes,
  published,
  deactivated: plan.deactivate,
});

/** Carries out one file's plan inside the unit of work. */
const applyPlan = async (
  tx: Repositories,
  deps: Deps,
  actor: Actor,
  plan: FilePlan,
  folderOf: (name: string) => Promise<string>,
): Promise<Result<AppliedFlow, DomainError>> => {
  if (outcomeOf(plan) === 'unchanged') return ok(reported(plan, plan.flow?.id ?? null, null));
  const now = deps.clock.now();
  const { fileName, file } = plan.input;
  const folderId = plan.folder === null ? null : (plan.folder.id ?? (await folderOf(plan.folder.name)));
  let flowId: string;
  if (!plan.flow) {
    flowId = deps.ids.next();
    await tx.flows.insert({ id: flowId, userId: actor.user.id, name: file.name, folderId, now });
    await tx.flows.update(flowId, { fileKey: file.key }, now);
    await replaceDraft(tx, flowId, plan.content, now);
  } else {
    flowId = plan.flow.id;
    if (plan.changes.includes('name') || plan.changes.includes('steps')) {
      const edited = await editDraft(tx, flowId, undefined, now, async () => {
        await replaceDraft(tx, flowId, plan.content, now);
        return ok(undefined);
      });
      if (!edited.ok) return edited;
    }
    if (plan.changes.includes('folder')) await tx.flows.update(flowId, { folderId }, now);
    if (plan.deactivate) await deactivate(tx, plan.flow, now);
  }
  if (plan.publish === null) return ok(reported(plan, flowId, null));
  const published = await publishDraft(tx, deps, flowId, actor.user.id, { message: `Applied from ${fileName}` });
  if (!published.ok) {
    // Checked before anything was written; a refusal here is the file's all the same.
    const fields = Object.entries(errorMessages(published.error)).map(([field, list]) => [
      `${fileName}: ${field}`,
      list,
    ]);
    return err(invalidInput(Object.fromEntries(fields)));
  }
  return ok(reported(plan, flowId, { version: published.value.version.number, created: published.value.created }));
};

/**
 * Makes the caller's flows what the files say, matched by key: a flow no file names is left
 * alone, a file no flow has makes one. A flow whose draft, folder and state already match is not
 * touched (no revision, no version); otherwise its draft becomes the file's (keeping the step ids
 * at their places, so that its runs' records still name them), and an active file publishes it
 * ("Applied from <file>") unless it runs that already. Every file is checked before anything is
 * written, and all are applied in one unit of work: all or none. `dryRun` only answers what
 * applying would do.
 */
export const makeApplyFlowFiles = (deps: Deps) => {
  const follow = followPublish(deps);
  return async (
    actor: Actor,
    inputs: readonly FlowFileInput[],
    { dryRun = false }: { readonly dryRun?: boolean } = {},
  ): Promise<Result<ApplyReport, DomainError>> => {
    const refused = authorize(actor, 'manage', 'Flow', { ownerId: actor.user.id });
    if (refused) return err(refused);
    if (dryRun) {
      const planned = await planFlowFiles(deps.repos, deps, actor, inputs);
      if (planned.errors) return err(invalidInput(planned.errors));
      const folders = new Set(planned.plans.flatMap((plan) => (plan.folder?.id === null ? [plan.folder.name] : [])));
      return ok({
        dryRun,
        flows: planned.plans.map((plan) => reported(plan, plan.flow?.id ?? null, plan.publish)),
        createdFolders: [...folders],
        leftAlone: planned.leftAlone,
      });
    }
    const applied = await deps.uow.run(async (tx): Promise<Result<ApplyReport, DomainError>> => {
      const planned = await planFlowFiles(tx, deps, actor, inputs);
      if (planned.errors) return err(invalidInput(planned.errors));
      const folders = new Map<string, string>();
      const folderOf = async (name: string) => {
        const known = folders.get(name);
        if (known) return known;
        const folder = await tx.folders.insert({
          id: deps.ids.next(),
          userId: actor.user.id,
          name,
          now: deps.clock.now(),
        });
        folders.set(name, folder.id);
        return folder.id;
      };
      const flows: AppliedFlow[] = [];
      for (const plan of planned.plans) {
        const done = await applyPlan(tx, deps, actor, plan, folderOf);
        if (!done.ok) return done;
        flows.push(done.value);
      }
      return ok({ dryRun, flows, createdFolders: [...folders.keys()], leftAlone: planned.leftAlone });
    });
    // Triggers follow the stored state. The files are applied all the same when a vendor refuses
    // an instant trigger's hook: that flow is stopped again, and the log says why.
    if (applied.ok) {
      for (const flow of applied.value.flows)
        if (flow.flowId && flow.outcome !== 'unchanged') await follow(flow.flowId);
    }
    return applied;
  };
};
