import { type Context, Hono } from 'hono';
import type { IncomingRequest } from '../../../ports/step-runner.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendOne } from '../envelope.js';
import { parseJsonText } from '../json-text.js';
import { isServerOnlyHeader, sandboxWebhooks } from '../middleware/webhook-sandbox.js';
import { bodyText } from '../request-body.js';
import { unwrap } from '../respond.js';
import { idParam } from '../validation.js';

/** The methods webhook addresses take (a HEAD or OPTIONS probe starts nothing). */
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** The two webhook routes, as the metrics name them (webhook-shedding.ts names its refusals so too). */
export const WEBHOOK_ROUTE = '/webhooks/flows/:flowId';
export const SYNC_WEBHOOK_ROUTE = `${WEBHOOK_ROUTE}/sync`;

/** Name-value pairs as Express reads them: a name given more than once keeps every value, as an array. */
const grouped = (pairs: URLSearchParams): Record<string, string | string[]> => {
  const values = new Map<string, string[]>();
  for (const [name, value] of pairs) values.set(name, [...(values.get(name) ?? []), value]);
  return Object.fromEntries([...values].map(([name, all]) => [name, all.length === 1 ? (all[0] as string) : all]));
};

/** The request as the trigger sees it: JSON and form bodies parsed, anything else as text. */
export const incoming = async (c: Context): Promise<IncomingRequest> => {
  const type = c.req.header('content-type') ?? '';
  const text = await bodyText(c);
  let body: unknown = text;
  if (text === '') body = null;
  else if (/json/i.test(type)) body = parseJsonText(text);
  else if (/application\/x-www-form-urlencoded/i.test(type)) {
    body = grouped(new URLSearchParams(text));
  }
  return {
    method: c.req.method,
    headers: c.req.header(),
    query: grouped(new URL(c.req.url).searchParams),
    body,
    rawBody: text,
  };
};

const NO_ANSWER = 'The flow ran, but it has no "Respond with" step that answered this call.';

/**
 * A flow's own answer (a "respond with" step's, or a trigger's reply to a vendor's handshake):
 * text is sent as it is, anything else as JSON; no body (as with 204) is an empty answer.
 */
const flowAnswer = (status: number, headers: Readonly<Record<string, string>>, given: unknown): Response => {
  const body = given === null || given === '' ? null : typeof given === 'string' ? given : JSON.stringify(given);
  const sent = new Headers(body !== null && typeof given !== 'string' ? { 'content-type': 'application/json' } : {});
  for (const [name, value] of Object.entries(headers)) {
    if (!isServerOnlyHeader(name)) sent.set(name, value);
  }
  return new Response(body, { status, headers: sent });
};

/**
 * Webhook intake (API.md §8). The plain address answers once the run is stored; `/sync` answers
 * with the run's "respond with" step (the answerSyncWebhook use case runs it in this process).
 */
export const webhookRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  return new Hono<AppEnv>()
    .use('/webhooks/*', sandboxWebhooks)
    .on(METHODS, WEBHOOK_ROUTE, async (c) => {
      const flowId = idParam(c, 'flowId', 'Flow');
      const { reply } = unwrap(await useCases.acceptWebhook(flowId, await incoming(c)));
      return reply ? flowAnswer(reply.status, reply.headers, reply.body) : c.body(null, 204);
    })
    .on(METHODS, SYNC_WEBHOOK_ROUTE, async (c) => {
      const flowId = idParam(c, 'flowId', 'Flow');
      const answer = unwrap(await useCases.answerSyncWebhook(flowId, await incoming(c)));
      switch (answer.kind) {
        case 'none':
          return c.body(null, 204);
        case 'respond':
          return flowAnswer(answer.statusCode, answer.headers, answer.body);
        case 'empty':
          // Automatisch answers an empty 204 here, which reads as if the flow had answered nothing.
          return sendOne(c, 'Object', { executionId: answer.executionId, status: 'success', message: NO_ANSWER }, 200);
        case 'pending':
          return sendOne(c, 'Object', { executionId: answer.executionId }, 202);
      }
    });
};
