import type { SamlAuthProviderInput } from '../../../core/application/saml/provider-input.js';
import type { Actor } from '../../../core/domain/actor.js';
import { invalidInput, licenseRequired } from '../../../core/domain/errors.js';
import type { HttpDeps } from '../context.js';
import { fail } from '../failures.js';
import { presentConnection } from '../presenters/app.presenter.js';
import { flowPresenters } from '../presenters/flow.presenter.js';
import { samlPresenters } from '../presenters/saml.presenter.js';
import { presentUser } from '../presenters/user.presenter.js';
import { unwrap } from '../respond.js';
import { updateProfileSchema } from '../schemas/accounts.schemas.js';
import { stepChangesSchema } from '../schemas/flows.schemas.js';
import { idOrNotFound, parseInput } from '../validation.js';

/** What every resolver gets: the caller, authenticated by the same middleware as REST. */
export interface GraphqlContext {
  readonly actor: Actor;
}

type Input = Readonly<Record<string, unknown>>;

/**
 * A root field with the optional `input` argument of API.md §7. A missing input is a validation
 * error of the field; with one, `run` does what the REST route does: the id (a malformed one is a
 * 404), the caller's access, the rest validated by the route's own schema, the same use case, the
 * same presenter.
 */
const withInput =
  <T>(run: (actor: Actor, input: Input) => Promise<T>) =>
  (args: { readonly input?: Input | null }, context: GraphqlContext): Promise<T> =>
    args.input == null ? fail(invalidInput({ input: ['is required.'] })) : run(context.actor, args.input);

/** The resolvers of `Query` and `Mutation`, by field name: graphql-js calls them on the root value. */
export const graphqlRoot = ({ useCases, settings }: Pick<HttpDeps, 'useCases' | 'settings'>) => {
  const present = flowPresenters(settings.publicUrl);
  const { presentSamlAuthProvider } = samlPresenters(settings.publicUrl);
  return {
    currentUser: async (_args: unknown, { actor }: GraphqlContext) =>
      presentUser(unwrap(await useCases.getCurrentUser(actor))),

    updateStep: withInput(async (actor, { id, ...changes }) => {
      const stepId = idOrNotFound(id, 'Step');
      unwrap(await useCases.checkAccess(actor, { to: 'step', id: stepId, action: 'manage' }));
      const definition = parseInput(stepChangesSchema, changes);
      return present.step(unwrap(await useCases.updateStep(actor, stepId, definition)).value);
    }),

    updateUser: withInput(async (actor, { id, ...changes }) => {
      const userId = idOrNotFound(id, 'User');
      unwrap(await useCases.checkAccess(actor, { to: 'own-account', userId }));
      const profile = parseInput(updateProfileSchema, changes);
      return presentUser(unwrap(await useCases.updateOwnProfile(actor, { userId, ...profile })));
    }),

    verifyConnection: withInput(async (actor, { id }) =>
      presentConnection(unwrap(await useCases.verifyConnection(actor, idOrNotFound(id, 'Connection')))),
    ),

    // An enterprise operation, as its REST routes: the licence is checked before anything else.
    // GraphQL has checked the input's types; the use case checks everything else, for an update
    // by issuer needs only the fields it changes.
    upsertSamlAuthProvider: withInput(async (actor, input) => {
      if (!useCases.getLicenseStatus().verified) fail(licenseRequired());
      unwrap(await useCases.checkAccess(actor, { to: 'administration' }));
      const provider = unwrap(await useCases.upsertSamlAuthProvider(actor, input as SamlAuthProviderInput));
      return presentSamlAuthProvider(provider);
    }),
  };
};
