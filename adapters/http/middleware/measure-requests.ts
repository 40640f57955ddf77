import { createMiddleware } from 'hono/factory';
import type { Metrics } from '../../../ports/metrics.js';
import type { AppEnv } from '../context.js';
import { matchedRoute } from './matched-route.js';

/** Times every request into the metrics, labelled by route pattern so that ids never become labels. */
export const measureRequests = (metrics: Metrics) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      metrics.observeHttp({
        method: c.req.method,
        route: matchedRoute(c),
        status: c.res.status,
        seconds: (performance.now() - started) / 1000,
      });
    }
  });
