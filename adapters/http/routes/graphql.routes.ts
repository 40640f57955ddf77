import { Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { fail } from '../failures.js';
import { formatGraphqlError } from '../graphql/errors.js';
import { graphqlExecutor } from '../graphql/execute.js';
import { graphqlRequest } from '../graphql/request.js';
import { graphqlRoot } from '../graphql/resolvers.js';
import { buildGraphqlSchema } from '../graphql/schema.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { readJson } from '../validation.js';

/** Where GraphQL is served (API.md §1): one mount, not mirrored under `/internal`. */
export const GRAPHQL_PATH = '/graphql';

/** Whether a request is for the GraphQL endpoint, whose errors take GraphQL's shape. */
export const isGraphqlPath = (path: string) => path === GRAPHQL_PATH || path === `${GRAPHQL_PATH}/`;

/**
 * `POST /graphql` (API.md §7): the caller authenticated as for REST, one JSON request, one
 * operation run. A request GraphQL could read answers 200, errors and all; one refused before
 * (credentials, method, body) answers the error table's status, in GraphQL's error shape.
 */
export const graphqlRoutes = (deps: HttpDeps) => {
  const run = graphqlExecutor(buildGraphqlSchema(), graphqlRoot(deps));
  return new Hono<AppEnv>()
    .post(GRAPHQL_PATH, requireActor(deps), requireAccess(deps)({ to: 'signed-in' }), async (c) => {
      const result = await run(graphqlRequest(await readJson(c)), { actor: c.var.actor });
      const onUnexpected = (error: Error) =>
        deps.logger.error(
          { requestId: c.get('requestId'), err: { message: error.message, stack: error.stack } },
          'unhandled error while resolving a GraphQL field',
        );
      return c.json({
        ...(result.data !== undefined && { data: result.data }),
        ...(result.errors && { errors: result.errors.map((error) => formatGraphqlError(error, onUnexpected)) }),
      });
    })
    .all(GRAPHQL_PATH, () => fail({ code: 'http.method_not_allowed', allow: 'POST' }));
};
