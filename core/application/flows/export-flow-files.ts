import type { Repositories } from '../../../ports/repositories.js';
import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import type { Flow } from '../../domain/flow.js';
import { type ConnectionRef, flowFileName, flowFileOf, newFileKey, renderFlowFile } from '../../domain/flow-file.js';
import { err, ok, type Result } from '../../domain/result.js';
import { authorize } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

/** One flow's file: its name in the folder and its text. */
export interface ExportedFlowFile {
  readonly flowId: string;
  readonly key: string;
  readonly name: string;
  readonly fileName: string;
  readonly text: string;
}

/**
 * Gives every flow of the owner that has none a key in files, from its name, unique among theirs.
 * Keeping the key is bookkeeping, not a change of the flow: its `updatedAt` stays.
 */
const keyFlows = async (tx: Repositories, ownerId: string) => {
  const flows = await tx.flows.listWithFileKeys(ownerId);
  const taken = new Set(flows.flatMap(({ fileKey }) => (fileKey === null ? [] : [fileKey])));
  const keyed: Array<{ readonly flow: Flow; readonly key: string }> = [];
  for (const { flow, fileKey } of flows) {
    let key = fileKey;
    if (key === null) {
      key = newFileKey(flow.name, taken);
      taken.add(key);
      await tx.flows.update(flow.id, { fileKey: key }, flow.updatedAt);
    }
    keyed.push({ flow, key });
  }
  return keyed;
};

/** Each connection the steps use, as a file names it. */
const connectionNames = async (tx: Repositories, ids: Iterable<string>): Promise<Map<string, ConnectionRef>> => {
  const names = new Map<string, ConnectionRef>();
  for (const id of new Set(ids)) {
    const connection = await tx.connections.findById(id);
    if (connection) names.set(id, { appKey: connection.appKey, name: connection.screenName });
  }
  return names;
};

/**
 * The files of the caller's own flows, by key: each flow's draft (what its editor shows) and
 * whether it is active. A flow gets its key on its first export and keeps it, renamed or not.
 */
export const makeExportFlowFiles =
  ({ uow }: Pick<CoreDeps, 'uow'>) =>
  async (actor: Actor): Promise<Result<ExportedFlowFile[], DomainError>> => {
    const refused = authorize(actor, 'read', 'Flow', { ownerId: actor.user.id });
    if (refused) return err(refused);
    return uow.run(async (tx) => {
      const flows = await keyFlows(tx, actor.user.id);
      const folders = new Map((await tx.folders.listByUser(actor.user.id)).map((f) => [f.id, f.name]));
      const steps = await tx.steps.listByFlows(flows.map(({ flow }) => flow.id));
      const connections = await connectionNames(
        tx,
        steps.flatMap((step) => (step.connectionId === null ? [] : [step.connectionId])),
      );
      const files = flows.map(({ flow, key }): ExportedFlowFile => {
        const file = flowFileOf(
          {
            key,
            name: flow.name,
            active: flow.active,
            folder: flow.folderId === null ? null : (folders.get(flow.folderId) ?? null),
          },
          steps
            .filter((step) => step.flowId === flow.id)
            .map((step) => ({
              ...step,
              connection: step.connectionId === null ? null : (connections.get(step.connectionId) ?? null),
            })),
        );
        return { flowId: flow.id, key, name: flow.name, fileName: flowFileName(key), text: renderFlowFile(file) };
      });
      return ok(files.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)));
    });
  };
