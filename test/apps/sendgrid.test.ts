import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  registerAppHook,
  runAppAction,
  runAppActionOutcome,
  runAppTrigger,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { createMemoryStore, WebhookRefusedError } from '../../adapters/apps/sdk/index.js';
import { sendgrid } from '../../adapters/apps/sendgrid/index.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';

const FULL_KEY = 'SG.key1.full-secret';
const MAIL_KEY = 'SG.key2.mail-secret';
const SCOPES: Record<string, string[]> = {
  [FULL_KEY]: ['mail.send', 'marketing.read', 'user.username.read'],
  [MAIL_KEY]: ['mail.send'],
};

const LISTS = Array.from({ length: 1003 }, (_, i) => ({ id: `l${i + 1}`, name: `List ${i + 1}` }));
const TEMPLATES = Array.from({ length: 210 }, (_, i) => ({ id: `d-${i + 1}`, name: `Template ${i + 1}` }));

/** SendGrid's token pages: `page_size` and `page_token`, the next page's address in `_metadata.next`. */
const tokenPage = <T>(req: FakeRequest, all: readonly T[], max: number, base: string) => {
  const size = Math.min(Number(req.query.page_size), max);
  const start = Number(req.query.page_token ?? 0);
  const next =
    start + size < all.length ? `${base}${req.path}?page_size=${size}&page_token=${start + size}` : undefined;
  return { result: all.slice(start, start + size), _metadata: { self: `${base}${req.path}`, ...(next && { next }) } };
};

const errors = (status: number, message: string, field: string | null = null) =>
  reply(status, { errors: [{ field, message, help: null }] });

const BOUNCES = [
  { created: 1_700_000_100, email: 'a@x.test', reason: '550 5.1.1 unknown user', status: '5.1.1' },
  { created: 1_700_000_300, email: 'b@x.test', reason: '552 mailbox full', status: '5.2.2' },
];

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) => (req.headers.authorization ?? '').slice(7) in SCOPES,
    unauthorized: errors(401, 'authorization required'),
    routes: {
      'GET /v3/scopes': (req) => ({ scopes: SCOPES[(req.headers.authorization ?? '').slice(7)] }),
      'GET /v3/user/username': () => ({ username: 'ann', user_id: 7 }),
      'POST /v3/mail/send': (req) => {
        const body = req.body as { from: { email: string } };
        if (body.from.email !== 'ann@example.com')
          return errors(403, 'The from address does not match a verified Sender Identity.', 'from');
        return reply(202, null, { 'x-message-id': 'msg-1' });
      },
      'PUT /v3/marketing/contacts': () => reply(202, { job_id: 'job-1' }),
      'POST /v3/marketing/contacts/search/emails': (req) => {
        const [email = ''] = (req.body as { emails: string[] }).emails;
        return email === 'ann@example.com'
          ? { result: { [email]: { contact: { id: 'c1', email } } } }
          : errors(404, 'No contacts found');
      },
      'GET /v3/marketing/contacts': () => ({
        result: [
          { id: 'c1', email: 'a@x.test', created_at: '2024-05-01T10:00:00Z' },
          { id: 'c2', email: 'b@x.test', created_at: '2024-05-02T10:00:00Z' },
        ],
        contact_count: 2,
        _metadata: { self: 'https://api.sendgrid.com/v3/marketing/contacts' },
      }),
      'GET /v3/suppression/bounces': (req) => {
        const from = Number(req.query.offset ?? 0);
        return BOUNCES.filter((b) => b.created >= Number(req.query.start_time)).slice(
          from,
          from + Number(req.query.limit),
        );
      },
      'POST /v3/user/webhooks/event/settings': (req) => reply(201, { id: 'wh-7', ...(req.body as object) }),
      'PATCH /v3/user/webhooks/event/settings/signed/:id': (req) =>
        req.params.id === 'wh-7'
          ? { id: 'wh-7', public_key: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE' }
          : errors(404, 'webhook not found'),
      'DELETE /v3/user/webhooks/event/settings/:id': () => reply(204),
      'GET /v3/marketing/lists': (req, self) => tokenPage(req, LISTS, 1000, `${self.url}`),
      'GET /v3/templates': (req, self) =>
        req.query.generations === 'dynamic' ? tokenPage(req, TEMPLATES, 200, self.url) : errors(400, 'generations'),
    },
  });
});
afterAll(() => vendor.close());

const call = (parameters: Record<string, unknown> = {}, apiKey = FULL_KEY) => ({
  parameters,
  auth: { apiKey },
  baseUrl: `${vendor.url}/v3`,
});

describe('sendgrid: connection', () => {
  it("names the account by its user name when the key may read it, else by the key's id", async () => {
    expect(await verifyAppAuth(sendgrid, { apiKey: FULL_KEY }, call())).toMatchObject({ ok: true, screenName: 'ann' });
    expect(await verifyAppAuth(sendgrid, { apiKey: MAIL_KEY }, call())).toMatchObject({
      ok: true,
      screenName: 'API key key2',
    });
    expect(vendor.calls('GET /v3/scopes').at(-1)?.headers.authorization).toBe(`Bearer ${MAIL_KEY}`);
  });

  it("refuses a wrong key with SendGrid's message, never showing the key", async () => {
    const check = await verifyAppAuth(sendgrid, { apiKey: 'SG.nope.wrong-secret' }, call());
    expect(check).toEqual({ ok: false, reason: `GET ${vendor.url}/v3/scopes answered 401: authorization required` });
  });

  it("sends an EU subuser's requests to SendGrid's EU API", () => {
    const base = (region: string) =>
      sendgrid.http.connectionBaseUrl?.({ data: { apiKey: FULL_KEY, region }, client: null, set: async () => {} });
    expect(base('eu')).toBe('https://api.eu.sendgrid.com/v3');
    expect(base('global')).toBeUndefined();
  });
});

describe('sendgrid: actions', () => {
  it('sends an e-mail with text and HTML, and returns the message id', async () => {
    const output = await runAppAction(
      sendgrid,
      'sendEmail',
      call({
        fromEmail: 'ann@example.com',
        fromName: 'Ann',
        to: 'bob@x.test, "Cy Lee" <cy@x.test>',
        bcc: 'audit@x.test',
        replyTo: 'Help <help@x.test>',
        subject: 'Hi',
        textContent: 'Hello',
        htmlContent: '<p>Hello</p>',
      }),
    );
    expect(output).toEqual({ messageId: 'msg-1', status: 202 });
    expect(vendor.calls('POST /v3/mail/send').at(-1)?.body).toEqual({
      personalizations: [
        { to: [{ email: 'bob@x.test' }, { email: 'cy@x.test', name: 'Cy Lee' }], bcc: [{ email: 'audit@x.test' }] },
      ],
      from: { email: 'ann@example.com', name: 'Ann' },
      reply_to: { email: 'help@x.test', name: 'Help' },
      subject: 'Hi',
      content: [
        { type: 'text/plain', value: 'Hello' },
        { type: 'text/html', value: '<p>Hello</p>' },
      ],
    });
  });

  it('sends a dynamic template with its data', async () => {
    await runAppAction(
      sendgrid,
      'sendEmail',
      call({ fromEmail: 'ann@example.com', to: 'bob@x.test', templateId: 'd-1', templateData: '{"name":"Bob"}' }),
    );
    expect(vendor.calls('POST /v3/mail/send').at(-1)?.body).toEqual({
      personalizations: [{ to: [{ email: 'bob@x.test' }], dynamic_template_data: { name: 'Bob' } }],
      from: { email: 'ann@example.com' },
      template_id: 'd-1',
    });
  });

  it('needs a subject and content without a template', async () => {
    await expect(
      runAppAction(sendgrid, 'sendEmail', call({ fromEmail: 'ann@example.com', to: 'b@x.test', textContent: 'x' })),
    ).rejects.toThrow(/subject/);
  });

  it("surfaces SendGrid's error message", async () => {
    await expect(
      runAppAction(
        sendgrid,
        'sendEmail',
        call({ fromEmail: 'eve@x.test', to: 'b@x.test', subject: 's', textContent: 't' }),
      ),
    ).rejects.toThrow(/answered 403: The from address does not match a verified Sender Identity\./);
  });

  it('adds or updates a contact, reserved fields by name and custom fields by id', async () => {
    const output = await runAppAction(
      sendgrid,
      'addOrUpdateContact',
      call({
        email: ' ann@example.com ',
        firstName: 'Ann',
        listIds: ['l1', 'l2'],
        fields: [
          { key: 'city', value: 'Lyon' },
          { key: 'e1_T', value: 'gold' },
        ],
      }),
    );
    expect(output).toEqual({ jobId: 'job-1', email: 'ann@example.com' });
    expect(vendor.calls('PUT /v3/marketing/contacts').at(-1)?.body).toEqual({
      list_ids: ['l1', 'l2'],
      contacts: [{ city: 'Lyon', email: 'ann@example.com', first_name: 'Ann', custom_fields: { e1_T: 'gold' } }],
    });
  });

  it('finds a contact by address, or says there is none', async () => {
    expect(await runAppAction(sendgrid, 'findContact', call({ email: 'Ann@Example.com' }))).toEqual({
      found: true,
      contact: { id: 'c1', email: 'ann@example.com' },
    });
    expect(await runAppAction(sendgrid, 'findContact', call({ email: 'nobody@x.test' }))).toEqual({
      found: false,
      contact: null,
    });
  });

  it('turns a 429 into a retryable failure', async () => {
    vendor.rateLimit(1);
    const outcome = await runAppActionOutcome(sendgrid, 'findContact', {
      parameters: { email: 'ann@example.com' },
      auth: { apiKey: FULL_KEY },
      baseUrl: `${vendor.url}/v3`,
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

describe('sendgrid: triggers and dynamic data', () => {
  it('polls new contacts newest first', async () => {
    const items = await runAppTrigger(sendgrid, 'newContact', call());
    expect(items.map((item) => item.id)).toEqual(['c2', 'c1']);
  });

  it('polls bounces newest first, a week back, then from a day before the last poll', async () => {
    const store = createMemoryStore();
    const before = Math.floor(Date.now() / 1000);
    const items = await runAppTrigger(sendgrid, 'newBounce', { ...call(), store });
    expect(items.map((item) => item.id)).toEqual([]);
    expect(Number(vendor.calls('GET /v3/suppression/bounces').at(-1)?.query.start_time)).toBeGreaterThanOrEqual(
      before - 7 * 24 * 3600,
    );
    await store.set('sendgrid:bounces', 1_700_000_000);
    const later = await runAppTrigger(sendgrid, 'newBounce', { ...call(), store });
    expect(later.map((item) => item.id)).toEqual(['b@x.test:1700000300', 'a@x.test:1700000100']);
    expect(vendor.calls('GET /v3/suppression/bounces').at(-1)?.query).toEqual({
      start_time: '1700000000',
      limit: '500',
      offset: '0',
    });
    expect(await store.get('sendgrid:bounces')).toBeGreaterThanOrEqual(before - 24 * 3600);
  });

  it('lists marketing lists and dynamic templates across pages', async () => {
    const lists = await loadAppDynamicData(sendgrid, 'listLists', call());
    expect(lists.map((option) => option.value)).toEqual(LISTS.slice(0, 1000).map((list) => list.id));
    const templates = await loadAppDynamicData(sendgrid, 'listTemplates', call());
    expect(templates).toHaveLength(210);
    expect(vendor.calls('GET /v3/templates').map((req) => req.query.page_token)).toEqual([undefined, '200']);
  });
});

describe('sendgrid: newEmailEvent registration', () => {
  const webhookUrl = 'https://conveyor.test/webhooks/flows/f1';

  it('creates an Event Webhook for the chosen events, signs it, keeps its key, and deletes it', async () => {
    const hook = await registerAppHook(sendgrid, 'newEmailEvent', {
      ...call({ eventTypes: ['open', 'click'] }),
      webhookUrl,
    });
    expect(hook).toEqual({ id: 'wh-7', publicKey: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE' });
    const made = vendor.calls('POST /v3/user/webhooks/event/settings').at(-1)?.body as Record<string, unknown>;
    expect(made).toMatchObject({
      enabled: true,
      url: webhookUrl,
      open: true,
      click: true,
      bounce: false,
      delivered: false,
    });
    expect(vendor.calls('PATCH /v3/user/webhooks/event/settings/signed/:id').at(-1)?.body).toEqual({ enabled: true });
    await unregisterAppHook(sendgrid, 'newEmailEvent', { ...call(), webhookUrl, hook });
    expect(vendor.calls('DELETE /v3/user/webhooks/event/settings/:id').at(-1)?.params.id).toBe('wh-7');
  });

  it('deletes the webhook again when its signature cannot be turned on', async () => {
    const signing = 'PATCH /v3/user/webhooks/event/settings/signed/:id';
    vendor.route(signing, () => errors(403, 'access forbidden'));
    const deleted = vendor.calls('DELETE /v3/user/webhooks/event/settings/:id').length;
    await expect(registerAppHook(sendgrid, 'newEmailEvent', { ...call(), webhookUrl })).rejects.toThrow(
      /access forbidden/,
    );
    expect(vendor.calls('DELETE /v3/user/webhooks/event/settings/:id')).toHaveLength(deleted + 1);
    vendor.route(signing, () => ({ id: 'wh-7', public_key: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE' }));
  });
});

describe('sendgrid: newEmailEvent deliveries', () => {
  // SendGrid signs with ECDSA P-256; the public key it hands out is base64 SPKI.
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const hook = { id: 'wh-1', publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64') };
  const events = [
    { email: 'a@x.test', timestamp: 1_700_000_001, event: 'delivered', sg_event_id: 'ev-1' },
    { email: 'a@x.test', timestamp: 1_700_000_009, event: 'open', sg_event_id: 'ev-2' },
    { email: 'b@x.test', timestamp: 1_700_000_005, event: 'bounce', sg_event_id: 'ev-3' },
  ];
  const delivery = (raw: string, at = Math.floor(Date.now() / 1000), key = privateKey) => ({
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-twilio-email-event-webhook-timestamp': String(at),
      'x-twilio-email-event-webhook-signature': sign('sha256', Buffer.from(`${at}${raw}`), key).toString('base64'),
    },
    query: {},
    body: JSON.parse(raw),
    rawBody: raw,
  });
  const deliver = (webhook: ReturnType<typeof delivery>, eventTypes: string[] = [], withHook: unknown = hook) =>
    runAppTrigger(sendgrid, 'newEmailEvent', { ...call({ eventTypes }), webhook, hook: withHook });

  it('hands on each event of a signed batch, latest first, or those of the types chosen', async () => {
    const raw = JSON.stringify(events);
    expect((await deliver(delivery(raw))).map((item) => item.id)).toEqual(['ev-2', 'ev-3', 'ev-1']);
    const some = await deliver(delivery(raw), ['bounce', 'delivered']);
    expect(some).toEqual([
      { id: 'ev-3', data: events[2] },
      { id: 'ev-1', data: events[0] },
    ]);
  });

  it('refuses a batch signed by another key, changed after signing, replayed late, or without a hook', async () => {
    const raw = JSON.stringify(events);
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    await expect(deliver(delivery(raw, undefined, other))).rejects.toBeInstanceOf(WebhookRefusedError);
    const tampered = { ...delivery(raw), rawBody: raw.replace('bounce', 'open') };
    await expect(deliver(tampered)).rejects.toThrow(/Signature header does not match/);
    const late = delivery(raw, Math.floor(Date.now() / 1000) - 600);
    await expect(deliver(late)).rejects.toThrow(/five minutes/);
    await expect(deliver(delivery(raw), [], null)).rejects.toBeInstanceOf(WebhookRefusedError);
  });

  it('lists the event types to choose from', async () => {
    const types = await loadAppDynamicData(sendgrid, 'listEventTypes', call());
    expect(types.map((option) => option.value)).toContain('spam_report');
  });
});
