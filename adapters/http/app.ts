import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { DatabaseUnavailableError } from '../../ports/database-unavailable.js';
import type { AppEnv, HttpDeps } from './context.js';
import { errorBody, INTERNAL_ERROR, renderFailure } from './error-table.js';
import { type Failure, FailureResponse, inputFailureOf } from './failures.js';
import { graphqlErrorBody, graphqlErrorOf, INTERNAL_GRAPHQL_ERROR } from './graphql/errors.js';
import { apiCors } from './middleware/api-cors.js';
import { requestLog } from './middleware/request-log.js';
import { bodyLimit } from './request-body.js';
import { apiRouter } from './routes/api.js';
import { appIconRoutes } from './routes/app-icons.routes.js';
import { formPageRoutes } from './routes/form-pages.routes.js';
import { GRAPHQL_PATH, graphqlRoutes, isGraphqlPath } from './routes/graphql.routes.js';
import { metricsRoutes } from './routes/metrics.routes.js';
import { openApiRoutes } from './routes/openapi.routes.js';
import { runResumeRoutes } from './routes/run-resume.routes.js';
import { samlSignInRoutes } from './routes/saml-sign-in.routes.js';
import { webhookRoutes } from './routes/webhooks.routes.js';

export const API_MOUNTS = ['/api/v1', '/internal/api/v1'] as const;

/** Paths this app owns: an unknown one among them is a JSON 404, never a console page. */
const RESERVED =
  /^\/(api|internal|webhooks|graphql|healthcheck|metrics|login\/saml|logout\/saml|apps\/[^/]+\/assets)(\/|$)/;

export const isReservedPath = (path: string) => RESERVED.test(path);

export const createHttpApp = (deps: HttpDeps) => {
  const { logger, health, metrics, settings } = deps;
  const app = new Hono<AppEnv>({ strict: false });

  type Ctx = Parameters<Parameters<typeof app.notFound>[0]>[0];
  // The same table decides every failure; the GraphQL endpoint shows it in GraphQL's error shape.
  const sendFailure = (c: Ctx, failure: Failure) => {
    const rendered = renderFailure(failure);
    const body = isGraphqlPath(c.req.path) ? graphqlErrorBody(graphqlErrorOf(rendered)) : errorBody(rendered);
    return c.json(body, rendered.status, rendered.headers);
  };
  const sendInternalError = (c: Ctx) =>
    c.json(
      isGraphqlPath(c.req.path) ? graphqlErrorBody(INTERNAL_GRAPHQL_ERROR) : errorBody(INTERNAL_ERROR),
      INTERNAL_ERROR.status,
    );

  app.use(requestId({ limitLength: 64 }));
  app.use(requestLog(logger, metrics));
  const cors = apiCors(settings.corsOrigins);
  for (const path of [...API_MOUNTS.map((mount) => `${mount}/*`), GRAPHQL_PATH]) app.use(path, cors);
  // A header a response already carries wins: the console's pages relax the opener policy for the
  // OAuth consent window (adapters/web); no route sets these headers itself.
  app.use(secureHeaders({ overwrite: false }));
  app.use(bodyLimit(settings.bodyLimitBytes));

  app.get('/healthcheck', async (c) =>
    (await health.databaseReachable())
      ? c.json({ status: 'ok' }, 200)
      : c.json({ status: 'unavailable', reason: 'The database does not answer.' }, 503),
  );

  app.route('/', metricsRoutes(metrics, settings.metricsToken));
  app.route('/', webhookRoutes(deps));
  app.route('/', runResumeRoutes(deps));
  // After the webhooks: their sandbox covers a waiting run's form page, under /webhooks too.
  app.route('/', formPageRoutes(deps));
  app.route('/', samlSignInRoutes(deps));

  const api = apiRouter(deps);
  for (const mount of API_MOUNTS) app.route(mount, api);
  app.route('/', graphqlRoutes(deps));
  app.route('/', openApiRoutes());
  app.route('/', appIconRoutes(deps.appIcon));

  app.notFound(async (c) => {
    if (deps.fallback && !isReservedPath(c.req.path)) {
      const answered = await deps.fallback(c.req.raw);
      if (answered) return answered;
    }
    return sendFailure(c, { code: 'http.route_not_found' });
  });
  app.onError((error, c) => {
    if (error instanceof FailureResponse) return sendFailure(c, error.failure);
    const inputFailure = inputFailureOf(error);
    if (inputFailure) return sendFailure(c, inputFailure);
    if (error instanceof DatabaseUnavailableError) {
      logger.warn({ requestId: c.get('requestId'), err: error.message }, 'database unavailable; answered 503');
      return sendFailure(c, { code: 'http.service_unavailable', retryAfterSeconds: 1 });
    }
    logger.error(
      { requestId: c.get('requestId'), err: { message: error.message, stack: error.stack } },
      'unhandled error while serving a request',
    );
    return sendInternalError(c);
  });
  return app;
};

export type HttpApp = ReturnType<typeof createHttpApp>;
