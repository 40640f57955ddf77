import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type DomainError, serviceBusy } from '../../core/domain/errors.js';
import type { HttpObservation, Metrics } from '../../ports/metrics.js';
import { WEBHOOK_CSP } from './middleware/webhook-sandbox.js';
import { shedWebhooks } from './webhook-shedding.js';

const BUSY_FLOW = '0b5c4a3e-1d2f-4a6b-8c9d-0e1f2a3b4c5d';
const OPEN_FLOW = '9f8e7d6c-5b4a-4321-8fed-cba987654321';

describe('webhook calls refused on the node:http request, before the app', () => {
  let server: Server;
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const serve = async () => {
    const observed: HttpObservation[] = [];
    const reached: string[] = [];
    const metrics = { observeHttp: (o: HttpObservation) => observed.push(o) } as unknown as Metrics;
    const asked: string[] = [];
    const refusal = (flowId: string): DomainError | null => {
      asked.push(flowId);
      return flowId === BUSY_FLOW ? serviceBusy(1) : null;
    };
    const app: RequestListener = (req, res) => {
      reached.push(req.url ?? '');
      req.resume();
      req.on('end', () => res.end('app'));
    };
    server = createServer(shedWebhooks(refusal, metrics)(app));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { base, observed, reached, asked };
  };

  it('answers a refused call 503 in the error envelope, sandboxed, without the app, and keeps the connection', async () => {
    const { base, observed, reached } = await serve();
    for (const path of [`/webhooks/flows/${BUSY_FLOW}`, `/webhooks/flows/${BUSY_FLOW.toUpperCase()}/sync?x=1`]) {
      const res = await request(`${base}${path}`, {
        method: 'POST',
        body: JSON.stringify({ big: 'x'.repeat(100_000) }),
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.headers['content-security-policy']).toBe(WEBHOOK_CSP);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(await res.body.json()).toEqual({
        errors: { general: ['The server is busy. Try again in 1 seconds.'] },
        meta: { type: 'ServiceUnavailableError' },
      });
    }
    // The unread bodies were dropped and the connection served the next call.
    expect((await request(`${base}/webhooks/flows/${OPEN_FLOW}`, { method: 'POST', body: '{}' })).statusCode).toBe(200);
    expect(reached).toEqual([`/webhooks/flows/${OPEN_FLOW}`]);
    expect(observed.map((o) => [o.route, o.status])).toEqual([
      ['/webhooks/flows/:flowId', 503],
      ['/webhooks/flows/:flowId/sync', 503],
    ]);
  });

  it('hands every other request to the app without asking the gate', async () => {
    const { base, reached, asked } = await serve();
    for (const path of ['/api/v1/flows', '/webhooks/flows/not-an-id', `/webhooks/flows/${BUSY_FLOW}/other`]) {
      expect((await request(`${base}${path}`)).statusCode).toBe(200);
    }
    expect(reached).toHaveLength(3);
    expect(asked).toEqual([]);
  });
});
