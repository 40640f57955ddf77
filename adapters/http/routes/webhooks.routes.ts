import { type Context, Hono } from 'hono';
import { executionFailed, webhookFiltered } from '../../../core/domain/errors.js';
import type { IncomingRequest } from '../../../ports/step-runner.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendOne } from '../envelope.js';
import { fail } from '../failures.js';
import { parseJsonText } from '../json-text.js';
import { bodyText } from '../request-body.js';
import { unwrap } from '../respond.js';
import { idParam } from '../validation.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Headers the server sets itself; a flow's answer may not. */
const HOP_BY_HOP = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade']);

/** The request as the trigger sees it: JSON and form bodies parsed, anything else as text. */
const incoming = async (c: Context): Promise<IncomingRequest> => {
  const type = c.req.header('content-type') ?? '';
  const text = await bodyText(c);
  let body: unknown = text;
  if (text === '') body = null;
  else if (/json/i.test(type)) body = parseJsonText(text);
  else if (/application\/x-www-form-urlencoded/i.test(type)) {
    body = Object.fromEntries(new URLSearchParams(text));
  }
  return { method: c.req.method, headers: c.req.header(), query: c.req.query(), body };
};

const sleep = (ms: number) => new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms).unref());

/**
 * Webhook intake (API.md §8). The plain address answers once the run is stored; `/sync` runs the
 * flow in this process and answers with its "respond with" step.
 */
export const webhookRoutes = (deps: HttpDeps & { readonly syncTimeoutMs: number }) => {
  const { useCases, logger } = deps;
  return new Hono<AppEnv>()
    .on(METHODS, '/webhooks/flows/:flowId', async (c) => {
      const flowId = idParam(c, 'flowId', 'Flow');
      unwrap(await useCases.acceptWebhook(flowId, await incoming(c)));
      return c.body(null, 204);
    })
    .on(METHODS, '/webhooks/flows/:flowId/sync', async (c) => {
      const flowId = idParam(c, 'flowId', 'Flow');
      const accepted = unwrap(await useCases.acceptWebhook(flowId, await incoming(c), { sync: true }));
      const [first, ...others] = accepted.executionIds;
      if (!accepted.active || !first) return c.body(null, 204);
      const run = (id: string) =>
        useCases.runExecution(id, `sync:${id}`).catch((error: unknown) => {
          // The run is stored: the reaper gives it to a worker once its lease runs out.
          logger.error({ executionId: id, err: error }, 'synchronous run failed to complete');
          return 'skipped' as const;
        });
      for (const id of others) void run(id);
      const outcome = await Promise.race([run(first), sleep(deps.syncTimeoutMs)]);
      const response = outcome === 'timeout' ? { kind: 'pending' as const } : await useCases.getWebhookResponse(first);
      switch (response.kind) {
        case 'respond': {
          const headers = Object.fromEntries(
            Object.entries(response.headers).filter(
              ([name, value]) => typeof value === 'string' && !HOP_BY_HOP.has(name.toLowerCase()),
            ),
          );
          const body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
          const isJson = typeof response.body !== 'string';
          return new Response(body, {
            status: response.statusCode,
            headers: { ...(isJson && { 'content-type': 'application/json' }), ...headers },
          });
        }
        case 'filtered':
          return fail(webhookFiltered());
        case 'failed':
          return fail(executionFailed(first));
        case 'empty':
          return c.body(null, 204);
        case 'pending':
          return sendOne(c, 'Object', { executionId: first }, 202);
      }
    });
};
