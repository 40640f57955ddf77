import { createMiddleware } from 'hono/factory';
import type { Logger } from '../../../ports/logger.js';
import type { Metrics } from '../../../ports/metrics.js';
import type { AppEnv } from '../context.js';
import { matchedRoute } from './matched-route.js';

const HEALTH_CHECK = '/healthcheck';

/**
 * Times every request once, for one JSON log line and the metrics' latency histogram. Both name
 * the matched route pattern rather than the URL: some URLs carry secrets
 * (`DELETE /access-tokens/:token`), and ids as metric labels would grow without end. Health checks
 * that pass are logged at debug level only.
 */
export const requestLog = (logger: Logger, metrics: Metrics) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    await next();
    const seconds = (performance.now() - started) / 1000;
    const { method } = c.req;
    const route = matchedRoute(c);
    const { status } = c.res;
    metrics.observeHttp({ method, route, status, seconds });
    // A load balancer's probe every few seconds would drown the requests worth reading.
    const level = route === HEALTH_CHECK && status < 400 ? 'debug' : 'info';
    logger[level](
      { requestId: c.get('requestId'), method, route, status, durationMs: Math.round(seconds * 10_000) / 10 },
      'request',
    );
  });
