import type { Actor } from '../../domain/actor.js';
import { type DomainError, invalidInput } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { Template } from '../../domain/template.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';
import { documentOf } from '../flows/export-flow.js';

/** A template of a flow as it is now: its export document, which later changes of the flow leave alone. */
export const makeCreateTemplate =
  (deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps'>) =>
  async (
    actor: Actor,
    input: { readonly name: string; readonly flowId: string },
  ): Promise<Result<Template, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    const flow = await deps.repos.flows.findById(input.flowId);
    if (!flow) return err(invalidInput({ flowId: ['is not a flow.'] }));
    const flowData = await documentOf(deps.repos, deps, flow);
    return deps.uow.run(async (tx) =>
      ok(await tx.templates.insert({ id: deps.ids.next(), name: input.name.trim(), flowData, now: deps.clock.now() })),
    );
  };
