import type { Repositories } from '../../../ports/repositories.js';
import { type DomainError, draftStale, notFound } from '../../domain/errors.js';
import { contentOf, differs, type FlowContent } from '../../domain/flow-version.js';
import { err, type Result } from '../../domain/result.js';

/**
 * A flow's steps (and name) as users edit them are its draft; the engine runs the published
 * version. Every change of the draft's content goes through `editDraft`: it refuses a change based
 * on an older revision than the stored one (two editors do not silently overwrite each other),
 * and it keeps `hasDraftChanges` true to what differs from the published version.
 */

/** The revision a write was based on (`If-Match`); undefined when the client did not say. */
export type BasedOn = number | undefined;

/** What a change of the draft answers beside its result: the draft's revision after it. */
export interface Revised<T> {
  readonly value: T;
  readonly draftRevision: number;
}

/** The flow's draft as it is stored now. */
export const draftContent = async (tx: Repositories, flowId: string, name: string): Promise<FlowContent> =>
  contentOf(name, await tx.steps.listByFlow(flowId));

/** Whether the draft now differs from the published version, stored on the flow. */
export const settleDraft = async (tx: Repositories, flowId: string, now: Date): Promise<void> => {
  const flow = await tx.flows.findById(flowId);
  if (!flow) return;
  const published = flow.publishedVersion && (await tx.flowVersions.findById(flow.publishedVersion.id));
  const changed = differs(await draftContent(tx, flowId, flow.name), published ?? null);
  if (changed !== flow.hasDraftChanges) await tx.flows.update(flowId, { draftChanged: changed }, now);
};

/**
 * Runs a change of the flow's draft inside the caller's unit of work: its revision grows first (a
 * stale `basedOn` is refused before anything is written), then `write`, then the draft is compared
 * with the published version again.
 */
export const editDraft = async <T>(
  tx: Repositories,
  flowId: string,
  basedOn: BasedOn,
  now: Date,
  write: (revision: number) => Promise<Result<T, DomainError>>,
): Promise<Result<T, DomainError>> => {
  const revision = await tx.flows.reviseDraft(flowId, basedOn ?? null, now);
  if (revision === null) {
    const flow = await tx.flows.findById(flowId);
    return err(flow ? draftStale(flow.draftRevision) : notFound('Flow'));
  }
  const written = await write(revision);
  if (written.ok) await settleDraft(tx, flowId, now);
  return written;
};

/**
 * The draft becomes the content (a version restored, or the published one when the draft is
 * discarded): steps it does not have go, its steps come back under their own ids. A connection
 * removed since leaves its step without one, incomplete.
 */
export const replaceDraft = async (
  tx: Repositories,
  flowId: string,
  content: FlowContent,
  now: Date,
): Promise<void> => {
  const wanted = new Set(content.steps.map((step) => step.id));
  const current = await tx.steps.listByFlow(flowId);
  for (const step of current) if (!wanted.has(step.id)) await tx.steps.delete(step.id);
  const existing = new Set(current.map((step) => step.id));
  for (const step of content.steps) {
    const connectionGone = step.connectionId !== null && !(await tx.connections.findById(step.connectionId));
    const definition = {
      appKey: step.appKey,
      key: step.key,
      name: step.name,
      position: step.position,
      parameters: step.parameters,
      connectionId: connectionGone ? null : step.connectionId,
      status: connectionGone ? ('incomplete' as const) : step.status,
      appVersion: step.appVersion,
      continueOnFailure: step.continueOnFailure,
      structuralType: step.structuralType,
      parentStepId: step.parentStepId,
      branchConditions: step.branchConditions,
    };
    if (existing.has(step.id)) {
      await tx.steps.update(step.id, definition, now);
    } else {
      await tx.steps.insert([{ ...definition, id: step.id, flowId, type: step.type, now }]);
    }
  }
  await tx.flows.update(flowId, { name: content.name }, now);
};
