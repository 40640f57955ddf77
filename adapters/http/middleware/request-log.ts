import { createMiddleware } from 'hono/factory';
import type { Logger } from '../../../ports/logger.js';
import type { AppEnv } from '../context.js';
import { matchedRoute } from './matched-route.js';

/**
 * One JSON line per request. It names the matched route pattern rather than the URL, because
 * some URLs carry secrets (`DELETE /access-tokens/:token`).
 */
export const requestLog = (logger: Logger) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    await next();
    logger.info(
      {
        requestId: c.get('requestId'),
        method: c.req.method,
        route: matchedRoute(c),
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  });
