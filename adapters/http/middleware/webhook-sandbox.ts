import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.js';

/**
 * Webhook answers are written by flow authors and served on the console's origin. The sandbox
 * gives the page an opaque origin of its own: its scripts run, but cannot read the origin's
 * storage or cookies, and what they send to the API goes without the visitor's session.
 * `allow-same-origin` is what must never be added here.
 */
export const WEBHOOK_CSP = 'sandbox allow-scripts allow-forms allow-popups allow-modals';

/** Headers only the server sets on its answers: a flow's "respond with" step cannot send them. */
const SERVER_ONLY = new Set([
  // The transport's own.
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  // Cookies on the console's origin.
  'set-cookie',
  'set-cookie2',
  'clear-site-data',
  // The security headers (secureHeaders in app.ts, and the sandbox above).
  'content-security-policy',
  'content-security-policy-report-only',
  'x-frame-options',
  'x-content-type-options',
  'strict-transport-security',
  'referrer-policy',
  'permissions-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
  'service-worker-allowed',
]);

export const isServerOnlyHeader = (name: string) => {
  const lower = name.toLowerCase();
  return SERVER_ONLY.has(lower) || lower.startsWith('cross-origin-');
};

/** Sandboxes every answer under `/webhooks`, the flows' own and the server's errors alike. */
export const sandboxWebhooks = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.res.headers.set('Content-Security-Policy', WEBHOOK_CSP);
});
