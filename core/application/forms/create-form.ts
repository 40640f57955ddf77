import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import type { Form } from '../../domain/form.js';
import { err, ok, type Result } from '../../domain/result.js';
import { authorize } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';
import { fieldsRefusal, type NewFormInput } from './form-input.js';

/** A form of the caller's. */
export const makeCreateForm =
  ({ uow, clock, ids }: Pick<CoreDeps, 'uow' | 'clock' | 'ids'>) =>
  async (actor: Actor, input: NewFormInput): Promise<Result<Form, DomainError>> => {
    const refused = authorize(actor, 'manage', 'Flow') ?? fieldsRefusal(input);
    if (refused) return err(refused);
    const definition = {
      name: input.name,
      displayName: input.displayName ?? null,
      description: input.description ?? null,
      responseMessage: input.responseMessage ?? null,
      submitButtonText: input.submitButtonText ?? null,
      fields: input.fields ?? [],
    };
    return uow.run(async (tx) =>
      ok(await tx.forms.insert({ ...definition, id: ids.next(), userId: actor.user.id, now: clock.now() })),
    );
  };
