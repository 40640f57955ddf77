import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { Metrics } from '../../../ports/metrics.js';
import type { AppEnv } from '../context.js';
import { fail } from '../failures.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares digests, so neither the token's length nor its first differing byte shows in the timing. */
const sameToken = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected));

/**
 * `GET /metrics` in Prometheus' text format. Public when no token is set (the figures are counts,
 * route patterns and queue names: no ids, secrets or user data); with `METRICS_TOKEN` it takes
 * `Authorization: Bearer <token>` and answers anything else 401.
 */
export const metricsRoutes = (metrics: Metrics, token: string | null) => {
  const app = new Hono<AppEnv>();
  app.get('/metrics', async (c) => {
    if (token !== null) {
      const [scheme, given] = (c.req.header('authorization') ?? '').split(' ', 2);
      if (scheme?.toLowerCase() !== 'bearer' || !given || !sameToken(given, token)) {
        return fail({ code: 'auth.unauthenticated' });
      }
    }
    const { contentType, body } = await metrics.expose();
    return c.body(body, 200, { 'content-type': contentType, 'cache-control': 'no-store' });
  });
  return app;
};
