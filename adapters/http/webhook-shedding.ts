import type { RequestListener } from 'node:http';
import type { DomainError } from '../../core/domain/errors.js';
import type { Metrics } from '../../ports/metrics.js';
import { errorBody, renderFailure } from './error-table.js';
import { WEBHOOK_CSP } from './middleware/webhook-sandbox.js';
import { SYNC_WEBHOOK_ROUTE, WEBHOOK_ROUTE } from './routes/webhooks.routes.js';
import { isUuid } from './validation.js';

const WEBHOOK = /^\/webhooks\/flows\/([^/]+)(\/sync)?\/?$/i;
const PREFIX = '/webhooks/flows/';

/**
 * Under overload most webhook calls are refused, and refusing must cost far less than taking a
 * call, or the refusals alone fill the process. So the server asks the intake gate about a webhook
 * call on Node's own request, before the web framework builds anything for it (its request, the
 * request id, the log line, the middleware chain, the body): a refusal is a few header writes.
 * A refused call is counted in the metrics only (the gate logs a summary). The use case asks the
 * gate again when it takes a call, so a caller of the framework alone (tests, an embedding
 * application) gets the same answer by the longer way: this is a shortcut, not a second rule.
 */
export const shedWebhooks =
  (refusal: (flowId: string) => DomainError | null, metrics: Metrics) =>
  (next: RequestListener): RequestListener =>
  (req, res) => {
    const url = req.url ?? '';
    if (!url.startsWith(PREFIX)) return next(req, res);
    const query = url.indexOf('?');
    const match = WEBHOOK.exec(query < 0 ? url : url.slice(0, query));
    const flowId = match?.[1];
    const refused = flowId && isUuid(flowId) ? refusal(flowId.toLowerCase()) : null;
    if (!refused) return next(req, res);
    const started = performance.now();
    const rendered = renderFailure(refused);
    const body = JSON.stringify(errorBody(rendered));
    // An answer under /webhooks like any other: sandboxed, never sniffed.
    res.writeHead(rendered.status, {
      ...rendered.headers,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'content-security-policy': WEBHOOK_CSP,
      'x-content-type-options': 'nosniff',
    });
    // Node reads and drops the body left unread, so the connection stays usable.
    res.end(body);
    metrics.observeHttp({
      method: req.method ?? 'GET',
      route: match?.[2] ? SYNC_WEBHOOK_ROUTE : WEBHOOK_ROUTE,
      status: rendered.status,
      seconds: (performance.now() - started) / 1000,
    });
  };
