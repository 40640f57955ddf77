import type { TestActor } from './actors.js';
import { adminsConnection, connectionFor } from './connection-fixtures.js';
import { actionOf, flowFor } from './flow-resources.js';
import { type MatrixFixtures, MISSING } from './route-case.js';

type Variables = Record<string, unknown>;

/**
 * A root field of the GraphQL schema. It calls the same use case as a REST route, so every caller
 * must get from it what they get from that route (`mirrors`, as `METHOD /route` of ROUTES): a 2xx
 * there is data here, any other status an error whose type has that status in API.md §3.
 */
export interface GraphqlCase {
  readonly field: string;
  readonly mirrors: string;
  readonly query: string;
  /** Variables naming a resource of the caller's (made the way the mirrored row's path makes it). */
  readonly variables: (fx: MatrixFixtures, actor: TestActor) => Variables | Promise<Variables>;
  /** The same for another user's resource, when the mirrored row has foreign checks. */
  readonly foreignVariables?: (fx: MatrixFixtures) => Variables | Promise<Variables>;
  /** The input made invalid in a way GraphQL's types let through, for the field's own checks. */
  readonly invalid?: (input: Variables) => Variables;
}

const own = (actor: TestActor) => actor.userId ?? MISSING;

/** Every root field the GraphQL endpoint serves (the router-coverage test holds this list to the schema). */
export const GRAPHQL_CASES: readonly GraphqlCase[] = [
  {
    field: 'currentUser',
    mirrors: 'GET /users/me',
    query: 'query { currentUser { id email } }',
    variables: () => ({}),
  },
  {
    field: 'updateStep',
    mirrors: 'PATCH /steps/:stepId',
    query: 'mutation ($input: UpdateStepInput) { updateStep(input: $input) { id name } }',
    variables: async (fx, actor) => ({ input: { id: actionOf(await flowFor(fx, actor)), name: 'Named' } }),
    foreignVariables: async (fx) => ({ input: { id: actionOf(await flowFor(fx, null)), name: 'Named' } }),
    invalid: (input) => ({ ...input, name: 'n'.repeat(300) }),
  },
  {
    field: 'updateUser',
    mirrors: 'PATCH /users/:userId',
    query: 'mutation ($input: UpdateUserInput) { updateUser(input: $input) { id fullName } }',
    variables: (_fx, actor) => ({ input: { id: own(actor), fullName: 'Renamed' } }),
    foreignVariables: (fx) => ({ input: { id: fx.adminId, fullName: 'Renamed' } }),
    invalid: (input) => ({ ...input, email: 'not an address' }),
  },
  {
    field: 'verifyConnection',
    mirrors: 'POST /connections/:connectionId/verify',
    query: 'mutation ($input: VerifyConnectionInput) { verifyConnection(input: $input) { id verified } }',
    variables: async (fx, actor) => ({ input: { id: await connectionFor(fx, actor, 'postgresql') } }),
    foreignVariables: async (fx) => ({ input: { id: await adminsConnection(fx, 'postgresql') } }),
  },
  {
    field: 'upsertSamlAuthProvider',
    mirrors: 'POST /admin/saml-auth-providers',
    query:
      'mutation ($input: UpsertSamlAuthProviderInput) { upsertSamlAuthProvider(input: $input) { id issuer active } }',
    variables: (fx) => ({ input: fx.samlProviderBody() }),
    invalid: (input) => ({ ...input, entryPoint: 'not a URL' }),
  },
];
