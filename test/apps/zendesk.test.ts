import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAppCatalog } from '../../adapters/apps/app-catalog.js';
import {
  loadAppDynamicData,
  registerAppHook,
  runAppAction,
  runAppTrigger,
  TEST_REDIRECT_URI,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { zendesk } from '../../adapters/apps/zendesk/index.js';
import type { Credentials } from '../../core/domain/app.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { rateLimitedOutcome } from './support/rate-limited-outcome.js';
import { type FakeZendesk, startFakeZendesk, ZENDESK_CLIENT } from './support/zendesk-fake.js';

let fake: FakeZendesk;
let client: typeof ZENDESK_CLIENT & { instanceUrl: string };
let auth: Credentials;

const connect = async (): Promise<Credentials> => {
  const code = `code-${Math.random()}`;
  fake.allowCode(code);
  const check = await verifyAppAuth(zendesk, { code, state: 's' }, { oauthClient: client });
  if (!check.ok) throw new Error(check.reason);
  return check.credentials;
};

beforeAll(async () => {
  fake = await startFakeZendesk();
  client = { ...ZENDESK_CLIENT, instanceUrl: fake.vendor.url };
  auth = await connect();
});
afterAll(() => fake.vendor.close());
afterEach(() => {
  fake.limits.page = 100;
});

const act = (key: string, parameters: Record<string, unknown>) =>
  runAppAction(zendesk, key, { auth, oauthClient: client, parameters });
const lastCall = (route: string) => fake.vendor.calls(route).at(-1);

describe('zendesk: connection', () => {
  it("sends the user to the account's consent page with read and write scopes", () => {
    if (zendesk.auth.kind !== 'oauth2') throw new Error('zendesk uses OAuth2');
    const url = new URL(zendesk.auth.authorizationUrl(client, { redirectUri: TEST_REDIRECT_URI, state: 'st' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.vendor.url}/oauth/authorizations/new`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: ZENDESK_CLIENT.clientId,
      redirect_uri: TEST_REDIRECT_URI,
      state: 'st',
      response_type: 'code',
      scope: 'read write',
    });
  });

  it("exchanges the code at the account's token endpoint and names the user with the account", async () => {
    fake.allowCode('c-1');
    const check = await verifyAppAuth(zendesk, { code: 'c-1', state: 's' }, { oauthClient: client });
    expect(check).toMatchObject({ ok: true, screenName: `Ann Agent @ ${new URL(fake.vendor.url).host}` });
    expect(lastCall('POST /oauth/tokens')?.body).toMatchObject({ grant_type: 'authorization_code', code: 'c-1' });
    expect(lastCall('GET /api/v2/users/me')?.headers.authorization).toMatch(/^Bearer zd-token-/);
  });

  it("reports Zendesk's reason for a refused code, and for a token it no longer takes", async () => {
    expect(await verifyAppAuth(zendesk, { code: 'nope', state: 's' }, { oauthClient: client })).toEqual({
      ok: false,
      reason: 'Authorization failed: The provided authorization grant is invalid.',
    });
    expect(await verifyAppAuth(zendesk, { accessToken: 'zd-token-stale' }, { oauthClient: client })).toEqual({
      ok: false,
      reason: `GET ${fake.vendor.url}/api/v2/users/me answered 401: The access token provided is expired, revoked, malformed or invalid for other reasons.`,
    });
  });

  it('renews an expired token with the refresh token once, and goes on', async () => {
    const credentials = await connect();
    fake.expire(String(credentials.accessToken));
    const before = fake.vendor.calls('POST /oauth/tokens').length;
    const output = await runAppAction(zendesk, 'findTicket', {
      auth: credentials,
      oauthClient: client,
      parameters: { query: 'status:open' },
    });
    expect(output).toMatchObject({ id: 3 });
    const renewals = fake.vendor.calls('POST /oauth/tokens').slice(before);
    expect(renewals.map((r) => (r.body as Record<string, string>).grant_type)).toEqual(['refresh_token']);
  });

  it('needs the account address in the client settings', () => {
    const catalog = createAppCatalog({ apps: [zendesk], allowPrivateNetworks: true, logger: new CapturingLogger() });
    expect(catalog.parseClientSettings('zendesk', ZENDESK_CLIENT)).toEqual({
      ok: false,
      fields: { instanceUrl: ['is required.'] },
    });
    void catalog.close();
  });
});

describe('zendesk: triggers', () => {
  it("newTickets: the view's tickets, newest first", async () => {
    const items = await runAppTrigger(zendesk, 'newTickets', {
      auth,
      oauthClient: client,
      parameters: { viewId: '100' },
    });
    expect(items.map((i) => i.id)).toEqual(['3', '2', '1']);
    expect(lastCall('GET /api/v2/views/:id/tickets')?.query).toEqual({
      'page[size]': '100',
      sort_by: 'nice_id',
      sort_order: 'desc',
    });
  });

  it('newUsers: a webhook for user.created, its signing secret read once, deliveries checked, removed', async () => {
    const webhookUrl = 'https://conveyor.test/webhooks/flows/flow-7';
    const call = { auth, oauthClient: client, parameters: {} };
    const hook = (await registerAppHook(zendesk, 'newUsers', { ...call, webhookUrl })) as {
      id: string;
      secret: string;
    };
    expect(hook).toEqual({ id: '01GWEBHOOK1', secret: 'zd-signing-secret-1' });
    expect(lastCall('POST /api/v2/webhooks')?.body).toEqual({
      webhook: {
        name: 'Conveyor: new users',
        status: 'active',
        endpoint: webhookUrl,
        http_method: 'POST',
        request_format: 'json',
        subscriptions: ['zen:event-type:user.created'],
      },
    });

    const event = { id: 'evt-1', type: 'zen:event-type:user.created', detail: { id: '30', role: 'end-user' } };
    const rawBody = JSON.stringify(event);
    const deliver = (timestamp: string, signature = fake.sign(hook.secret, timestamp, rawBody)) =>
      runAppTrigger(zendesk, 'newUsers', {
        ...call,
        hook,
        webhook: {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-zendesk-webhook-id': hook.id,
            'x-zendesk-webhook-signature': signature,
            'x-zendesk-webhook-signature-timestamp': timestamp,
          },
          query: {},
          body: event,
          rawBody,
        },
      });
    const now = new Date().toISOString();
    expect(await deliver(now)).toEqual([{ id: 'evt-1', data: event }]);
    await expect(deliver(now, fake.sign('guessed-secret', now, rawBody))).rejects.toMatchObject({
      name: 'WebhookRefusedError',
      message: expect.stringContaining('X-Zendesk-Webhook-Signature'),
    });
    const old = new Date(Date.now() - 10 * 60_000).toISOString();
    await expect(deliver(old)).rejects.toMatchObject({
      name: 'WebhookRefusedError',
      message: expect.stringContaining('five minutes'),
    });

    await unregisterAppHook(zendesk, 'newUsers', { ...call, webhookUrl, hook });
    expect(fake.webhooks.size).toBe(0);
    await unregisterAppHook(zendesk, 'newUsers', { ...call, webhookUrl, hook });
  });
});

describe('zendesk: actions', () => {
  it("createTicket sends Zendesk's ticket, Automatisch's row lists included, once per idempotency key", async () => {
    const parameters = {
      subject: 'Printer on fire',
      comment: '<p>Help</p>',
      format: 'HTML',
      publicOrNot: 'no',
      assigneeId: '11',
      collaborators: [{ collaborator: '12' }, { collaborator: '' }],
      collaboratorEmails: [{ collaboratorEmail: 'boss@example.com' }],
      requesterName: 'Dee',
      requesterEmail: 'dee@example.com',
      tags: 'printer, urgent',
      priority: 'high',
      sharingAgreements: '7',
    };
    const first = await act('createTicket', parameters);
    expect(first).toMatchObject({ ticket: { id: 4, subject: 'Printer on fire' } });
    const sent = lastCall('POST /api/v2/tickets');
    expect(sent?.body).toEqual({
      ticket: {
        subject: 'Printer on fire',
        comment: { html_body: '<p>Help</p>', public: false },
        requester: { name: 'Dee', email: 'dee@example.com' },
        assignee_id: 11,
        collaborators: [12, 'boss@example.com'],
        tags: ['printer', 'urgent'],
        priority: 'high',
        sharing_agreement_ids: [7],
      },
    });
    expect(sent?.headers['idempotency-key']).toBe('test-execution:zendesk.createTicket');
    expect(await act('createTicket', parameters)).toEqual(first);
  });

  it("fails with Zendesk's description when it refuses a record", async () => {
    await expect(act('createUser', { name: 'Ann', email: 'ann@example.com' })).rejects.toThrow(
      /answered 422: Record validation errors/,
    );
  });

  it('createUser, updateTicket, deleteTicket and deleteUser send what Zendesk documents', async () => {
    expect(
      await act('createUser', { name: 'Eve', email: 'eve@example.com', role: 'agent', tags: 'vip' }),
    ).toMatchObject({
      user: { id: 20, name: 'Eve' },
    });
    expect(lastCall('POST /api/v2/users')?.body).toEqual({
      user: { name: 'Eve', email: 'eve@example.com', tags: ['vip'], role: 'agent', verified: false },
    });
    expect(await act('updateTicket', { ticketId: '2', status: 'solved', comment: 'Done' })).toMatchObject({
      ticket: { id: 2, status: 'solved' },
    });
    expect(lastCall('PUT /api/v2/tickets/:id')?.body).toEqual({
      ticket: { status: 'solved', comment: { body: 'Done', public: true } },
    });
    expect(await act('deleteTicket', { ticketId: '3' })).toEqual({ ticketId: '3', deleted: true });
    await expect(act('deleteTicket', { ticketId: '99' })).rejects.toThrow(/answered 404: Not found/);
    expect(await act('deleteUser', { userId: '13' })).toMatchObject({ user: { id: 13, active: false } });
  });

  it('findTicket answers the newest match, or an empty object', async () => {
    expect(await act('findTicket', { query: 'status:open' })).toEqual({ id: 3, subject: 'Ticket 3', status: 'open' });
    expect(lastCall('GET /api/v2/search')?.query).toEqual({
      query: 'type:ticket status:open',
      sort_by: 'created_at',
      sort_order: 'desc',
    });
    expect(await act('findTicket', { query: 'status:closed' })).toEqual({});
  });

  it('turns a 429 into a retryable failure', async () => {
    const outcome = await rateLimitedOutcome(zendesk, fake.vendor, {
      key: 'deleteTicket',
      parameters: { ticketId: '1' },
      credentials: auth,
      oauthClient: client,
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

describe('zendesk: dynamic data', () => {
  const load = (key: string) => loadAppDynamicData(zendesk, key, { auth, oauthClient: client });

  it('follows cursors and numbered pages to the end', async () => {
    fake.limits.page = 2;
    expect(await load('listUsers')).toEqual([
      { name: 'Ann Agent (agent)', value: '11' },
      { name: 'Bo Admin (admin)', value: '12' },
      { name: 'Cy Agent (agent)', value: '13' },
    ]);
    expect(
      fake.vendor
        .calls('GET /api/v2/users')
        .slice(-2)
        .map((r) => r.query['page[after]']),
    ).toEqual([undefined, '2']);
    expect(lastCall('GET /api/v2/users')?.queryAll.getAll('role[]')).toEqual(['agent', 'admin']);
    expect((await load('listViews')).map((o) => o.name)).toEqual(['View 1', 'View 2', 'View 3']);
    expect((await load('listGroups')).length).toBe(3);
    expect((await load('listOrganizations')).length).toBe(2);
    expect((await load('listBrands')).map((o) => o.value)).toEqual(['100', '101', '102']);
    expect(await load('listTicketForms')).toEqual([{ name: 'Default form', value: '500' }]);
    expect((await load('listFirstPageOfTickets')).map((o) => o.value)).toEqual(['3', '2', '1']);
  });
});

describe('zendesk: Automatisch compatibility', () => {
  it("keeps Automatisch's app key, connection fields, steps and their argument keys", () => {
    const steps = (list: readonly { key: string; arguments: readonly { key: string }[] }[]) =>
      Object.fromEntries(list.map((s) => [s.key, s.arguments.map((a) => a.key)]));
    expect(zendesk.manifest.auth.clientFields.map((f) => f.key)).toEqual(['clientId', 'clientSecret', 'instanceUrl']);
    expect(steps(zendesk.manifest.triggers)).toEqual({ newTickets: ['viewId'], newUsers: [] });
    expect(steps(zendesk.manifest.actions)).toEqual({
      createTicket: [
        'subject',
        'assigneeId',
        'collaborators',
        'collaboratorEmails',
        'groupId',
        'requesterName',
        'requesterEmail',
        'format',
        'comment',
        'publicOrNot',
        'tags',
        'status',
        'type',
        'dueAt',
        'priority',
        'submitterId',
        'ticketForm',
        'sharingAgreements',
        'brandId',
      ],
      createUser: [
        'name',
        'email',
        'details',
        'notes',
        'phone',
        'tags',
        'role',
        'organizationId',
        'externalId',
        'verified',
      ],
      deleteTicket: ['ticketId'],
      deleteUser: ['userId'],
      findTicket: ['query'],
      updateTicket: [
        'ticketId',
        'subject',
        'assigneeId',
        'groupId',
        'status',
        'comment',
        'publicOrNot',
        'tags',
        'type',
        'priority',
        'submitterId',
      ],
    });
  });
});
