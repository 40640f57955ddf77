import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import type { ExportDocument } from '../../domain/export-document.js';
import { err, ok, type Result } from '../../domain/result.js';
import { authorize } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';
import type { FlowView, ViewDeps } from './flow-views.js';
import { insertFlow, stepsFromDocument } from './insert-flow.js';

/** A new, unpublished flow of the caller from an export document, under fresh ids again. */
export const makeImportFlow =
  (deps: Pick<CoreDeps, 'uow' | 'clock' | 'ids' | 'apps'> & ViewDeps) =>
  async (actor: Actor, document: ExportDocument): Promise<Result<FlowView, DomainError>> => {
    const refused = authorize(actor, 'manage', 'Flow');
    if (refused) return err(refused);
    const steps = stepsFromDocument(deps, document);
    if (!steps.ok) return steps;
    return deps.uow.run(async (tx) =>
      ok(
        await insertFlow(tx, deps, { ownerId: actor.user.id, name: document.name, folderId: null, steps: steps.value }),
      ),
    );
  };
