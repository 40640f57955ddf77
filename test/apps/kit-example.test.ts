import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppDynamicData, runAppAction, runAppTrigger, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { createMemoryStore } from '../../adapters/apps/sdk/index.js';
import { type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { describeAppContract } from './app-contract.js';
import { acmeTickets } from './support/kit-example/acme-tickets.js';

const TICKETS = [
  { id: 3, subject: 'Third', created_at: '2026-11-03' },
  { id: 2, subject: 'Second', created_at: '2026-11-02' },
  { id: 1, subject: 'First', created_at: '2026-11-01' },
];

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) => req.headers.authorization === 'Bearer t0k',
    unauthorized: reply(401, { message: 'Invalid API token' }),
    routes: {
      'GET /me': () => ({ email: 'ann@acme.example' }),
      'GET /queues': (req) =>
        req.query.cursor === 'p2'
          ? { queues: [{ id: 'q3', name: 'Billing' }], next_cursor: null }
          : {
              queues: [
                { id: 'q1', name: 'Sales' },
                { id: 'q2', name: 'Support' },
              ],
              next_cursor: 'p2',
            },
      'GET /queues/:queue/tickets': (req) => ({
        tickets: TICKETS.filter((t) => req.query.created_after === undefined || t.created_at > req.query.created_after),
      }),
      'POST /queues/:queue/tickets': (req) => reply(201, { id: 4, queue: req.params.queue, ...(req.body as object) }),
    },
  });
});
afterAll(() => vendor.close());

const call = { auth: { apiToken: 't0k' }, baseUrl: '' };

describeAppContract(acmeTickets);

describe('the HTTP app kit example (docs/app-sdk.md)', () => {
  it('is shown in docs/app-sdk.md word for word', () => {
    const source = readFileSync(new URL('./support/kit-example/acme-tickets.ts', import.meta.url), 'utf8');
    const doc = readFileSync(new URL('../../docs/app-sdk.md', import.meta.url), 'utf8');
    const shown = source.replace("'../../../../adapters/apps/sdk/index.js'", "'conveyor/sdk'");
    expect(doc).toContain(`\`\`\`ts\n${shown}\`\`\``);
    expect(source.trimEnd().split('\n').length).toBeLessThan(50);
  });

  it('connects with the API token, and says why when the vendor refuses it', async () => {
    call.baseUrl = vendor.url;
    expect(await verifyAppAuth(acmeTickets, call.auth, call)).toMatchObject({
      ok: true,
      screenName: 'ann@acme.example',
    });
    expect(await verifyAppAuth(acmeTickets, { apiToken: 'nope' }, call)).toEqual({
      ok: false,
      reason: expect.stringContaining('Invalid API token'),
    });
  });

  it('creates a ticket', async () => {
    const output = await runAppAction(acmeTickets, 'createTicket', {
      ...call,
      parameters: { queue: 'q 1', subject: 'Help' },
    });
    expect(output).toEqual({ id: 4, queue: 'q 1', subject: 'Help' });
  });

  it('polls for tickets, asking from the newest value of the poll before last', async () => {
    const store = createMemoryStore();
    const poll = () => runAppTrigger(acmeTickets, 'newTicket', { ...call, store, parameters: { queue: 'q1' } });
    expect((await poll()).map((item) => item.id)).toEqual(['3', '2', '1']);
    expect(vendor.calls('GET /queues/:queue/tickets').at(-1)?.query.created_after).toBeUndefined();
    // The second poll still reads everything: the first poll's runs might not have been stored.
    expect((await poll()).map((item) => item.id)).toEqual(['3', '2', '1']);
    expect((await poll()).map((item) => item.id)).toEqual([]);
    expect(vendor.calls('GET /queues/:queue/tickets').at(-1)?.query.created_after).toBe('2026-11-03');
  });

  it('lists every queue across pages', async () => {
    const options = await loadAppDynamicData(acmeTickets, 'listQueues', call);
    expect(options).toEqual([
      { name: 'Sales', value: 'q1' },
      { name: 'Support', value: 'q2' },
      { name: 'Billing', value: 'q3' },
    ]);
  });
});
