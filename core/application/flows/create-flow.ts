import type { Actor } from '../../domain/actor.js';
import { type DomainError, invalidInput } from '../../domain/errors.js';
import { NEW_FLOW_NAME } from '../../domain/flow.js';
import { emptyStep, type PlacedDefinition } from '../../domain/flow-rules.js';
import { err, ok, type Result } from '../../domain/result.js';
import { authorize } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';
import { findBuiltInTemplate } from '../templates/built-in-templates.js';
import { loadUsableTemplate } from '../templates/templates-enabled.js';
import type { FlowView, ViewDeps } from './flow-views.js';
import { insertFlow, stepsFromDocument } from './insert-flow.js';

/**
 * A new flow owned by the caller: an empty trigger and an empty action, or the steps of a template
 * (the instance's own, by id, or one shipped with Conveyor, by key).
 */
export const makeCreateFlow =
  (deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps' | 'license'> & ViewDeps) =>
  async (
    actor: Actor,
    input: { readonly templateId?: string | undefined; readonly builtInTemplate?: string | undefined },
  ): Promise<Result<FlowView, DomainError>> => {
    const refused = authorize(actor, 'manage', 'Flow');
    if (refused) return err(refused);
    if (input.templateId !== undefined && input.builtInTemplate !== undefined)
      return err(invalidInput({ builtInTemplate: ['cannot be given with templateId.'] }));
    let name = NEW_FLOW_NAME;
    let steps: readonly PlacedDefinition[] = [
      emptyStep(deps.ids.next(), 1, 'trigger'),
      emptyStep(deps.ids.next(), 2, 'action'),
    ];
    const template =
      input.templateId !== undefined
        ? await loadUsableTemplate(deps, input.templateId)
        : input.builtInTemplate !== undefined
          ? findBuiltInTemplate(input.builtInTemplate)
          : null;
    if (template) {
      if (!template.ok) return template;
      const copied = stepsFromDocument(deps, template.value.flowData);
      if (!copied.ok) return copied;
      name = template.value.name;
      steps = copied.value;
    }
    return deps.uow.run(async (tx) =>
      ok(await insertFlow(tx, deps, { ownerId: actor.user.id, name, folderId: null, steps })),
    );
  };
