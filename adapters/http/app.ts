import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv, HttpDeps } from './context.js';
import { INTERNAL_ERROR, type RenderedError, renderFailure } from './error-table.js';
import { type Failure, FailureResponse } from './failures.js';
import { requestLog } from './middleware/request-log.js';
import { apiRouter } from './routes/api.js';
import { samlSignInRoutes } from './routes/saml-sign-in.routes.js';
import { webhookRoutes } from './routes/webhooks.routes.js';

export const API_MOUNTS = ['/api/v1', '/internal/api/v1'] as const;

const errorBody = ({ type, errors }: RenderedError) => ({ errors, meta: { type } });

export const createHttpApp = (deps: HttpDeps) => {
  const { logger, health, settings } = deps;
  const app = new Hono<AppEnv>({ strict: false });

  const sendFailure = (c: Parameters<Parameters<typeof app.notFound>[0]>[0], failure: Failure) => {
    const rendered = renderFailure(failure);
    return c.json(errorBody(rendered), rendered.status, rendered.headers);
  };

  app.use(requestId({ limitLength: 64 }));
  app.use(requestLog(logger));
  app.use(secureHeaders());
  app.use(
    bodyLimit({
      maxSize: settings.bodyLimitBytes,
      onError: (c) => sendFailure(c, { code: 'http.payload_too_large', limitBytes: settings.bodyLimitBytes }),
    }),
  );

  app.get('/healthcheck', async (c) =>
    (await health.databaseReachable())
      ? c.json({ status: 'ok' }, 200)
      : c.json({ status: 'unavailable', reason: 'The database does not answer.' }, 503),
  );

  app.route('/', webhookRoutes({ ...deps, syncTimeoutMs: settings.syncTimeoutMs }));
  app.route('/', samlSignInRoutes(deps));

  const api = apiRouter(deps);
  for (const mount of API_MOUNTS) app.route(mount, api);

  app.notFound((c) => sendFailure(c, { code: 'http.route_not_found' }));
  app.onError((error, c) => {
    if (error instanceof FailureResponse) return sendFailure(c, error.failure);
    logger.error(
      { requestId: c.get('requestId'), err: { message: error.message, stack: error.stack } },
      'unhandled error while serving a request',
    );
    return c.json(errorBody(INTERNAL_ERROR), INTERNAL_ERROR.status);
  });
  return app;
};

export type HttpApp = ReturnType<typeof createHttpApp>;
