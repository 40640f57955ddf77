import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  registerAppHook,
  runAppAction,
  runAppActionOutcome,
  runAppTrigger,
  TEST_REDIRECT_URI,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { nestedForm } from '../../adapters/apps/mailchimp/audience-events.js';
import { mailchimpApi } from '../../adapters/apps/mailchimp/auth.js';
import { mailchimp } from '../../adapters/apps/mailchimp/index.js';
import { createMemoryStore, WebhookRefusedError, WebhookReplyRequested } from '../../adapters/apps/sdk/index.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { consentPage } from './support/consent-page.js';

const CLIENT = { clientId: 'mc-client', clientSecret: 'mc-secret' };
const TOKEN = 'mc-token-us21';

/** More audiences than one page of 1,000 (Mailchimp's largest `count`). */
const AUDIENCES = Array.from({ length: 1003 }, (_, i) => ({ id: `list${i + 1}`, name: `Audience ${i + 1}` }));

/** Mailchimp's `count` (10 by default, at most 1,000) and `offset`, with `total_items`. */
const page = <T>(req: FakeRequest, key: string, all: readonly T[]) => {
  const count = Math.min(Number(req.query.count ?? 10), 1000);
  const offset = Number(req.query.offset ?? 0);
  return { [key]: all.slice(offset, offset + count), total_items: all.length };
};

const problem = (status: number, title: string, detail: string) =>
  reply(status, {
    type: 'https://mailchimp.com/developer/marketing/docs/errors/',
    title,
    status,
    detail,
    instance: 'i1',
  });

const hashOf = (email: string) => createHash('md5').update(email).digest('hex');

let vendor: FakeVendor;

beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) => req.path.startsWith('/oauth2/') || req.headers.authorization === `Bearer ${TOKEN}`,
    unauthorized: problem(
      401,
      'API Key Invalid',
      "Your API key may be invalid, or you've attempted to access the wrong datacenter.",
    ),
    routes: {
      'POST /oauth2/token': (req) => {
        const form = req.body as Record<string, string>;
        return form.code === 'good-code' && form.client_secret === CLIENT.clientSecret
          ? { access_token: TOKEN, expires_in: 0, scope: null }
          : reply(400, { error: 'invalid_grant', error_description: 'Invalid authorization code' });
      },
      'GET /oauth2/metadata': (req, self) =>
        req.headers.authorization === `OAuth ${TOKEN}`
          ? { dc: 'us21', accountname: 'Ann Co', login: { login_name: 'ann' }, api_endpoint: self.url }
          : reply(401, { error: 'invalid_token' }),
      'GET /3.0/': () => ({ account_id: 'a1', account_name: 'Ann Co', username: 'ann', email: 'ann@example.com' }),
      'GET /3.0/lists': (req) => page(req, 'lists', AUDIENCES),
      'GET /3.0/campaigns': (req) =>
        page(req, 'campaigns', [
          { id: 'c1', settings: { title: 'Spring', subject_line: 'Hello' } },
          { id: 'c2', settings: { title: '', subject_line: 'News' } },
        ]),
      'GET /3.0/lists/:id/segments': (req) =>
        page(req, 'segments', [
          { id: 11, name: 'VIP', type: 'static' },
          { id: 12, name: 'Recent', type: 'saved' },
        ]),
      'GET /3.0/templates': (req) => page(req, 'templates', [{ id: 7, name: 'Plain' }]),
      'GET /3.0/reports/:id/open-details': (req) =>
        page(req, 'members', [
          { email_id: 'e1', email_address: 'a@x.test', opens: [{ timestamp: '2024-05-01T10:00:00+00:00' }] },
          {
            email_id: 'e2',
            email_address: 'b@x.test',
            opens: [{ timestamp: '2024-05-01T09:00:00+00:00' }, { timestamp: '2024-05-02T08:00:00+00:00' }],
          },
        ]),
      'POST /3.0/campaigns': (req) => ({ id: 'c9', web_id: 99, status: 'save', ...(req.body as object) }),
      'PUT /3.0/campaigns/:id/content': (req) => ({ html: (req.body as { html?: string }).html ?? '<p>t</p>' }),
      'POST /3.0/campaigns/:id/actions/send': (req) =>
        req.params.id === 'c1' ? reply(204) : problem(400, 'Bad Request', 'Your Campaign is not ready to send.'),
      'PUT /3.0/lists/:list/members/:hash': (req) => ({
        id: req.params.hash,
        list_id: req.params.list,
        ...(req.body as object),
      }),
      'POST /3.0/lists/:list/members/:hash/tags': () => reply(204),
      'POST /3.0/lists/:list/webhooks': (req) => ({ id: 'wh9', list_id: req.params.list, ...(req.body as object) }),
      'DELETE /3.0/lists/:list/webhooks/:id': () => reply(204),
    },
  });
});
afterAll(() => vendor.close());

const call = (parameters: Record<string, unknown> = {}) => ({
  parameters,
  auth: { accessToken: TOKEN, serverPrefix: 'us21', apiEndpoint: vendor.url },
  oauthClient: CLIENT,
  authUrl: vendor.url,
});

describe('mailchimp: connection', () => {
  it('sends the user to the consent page with the client id, redirect and state', () => {
    expect(consentPage(mailchimp, CLIENT)).toEqual({
      page: 'https://login.mailchimp.com/oauth2/authorize',
      query: { client_id: 'mc-client', redirect_uri: TEST_REDIRECT_URI, state: 's1', response_type: 'code' },
    });
  });

  it('exchanges the code, learns the data centre from the metadata, and names the account', async () => {
    const check = await verifyAppAuth(
      mailchimp,
      { code: 'good-code', state: 's1' },
      { oauthClient: CLIENT, authUrl: vendor.url },
    );
    expect(check).toMatchObject({ ok: true, screenName: 'ann' });
    if (!check.ok) return;
    expect(check.credentials).toEqual({ accessToken: TOKEN, serverPrefix: 'us21', apiEndpoint: vendor.url });
    expect(vendor.calls('POST /oauth2/token').at(-1)?.body).toMatchObject({
      grant_type: 'authorization_code',
      code: 'good-code',
      redirect_uri: TEST_REDIRECT_URI,
      client_id: 'mc-client',
    });
  });

  it("refuses a bad code with Mailchimp's reason", async () => {
    const check = await verifyAppAuth(mailchimp, { code: 'old' }, { oauthClient: CLIENT, authUrl: vendor.url });
    expect(check).toEqual({ ok: false, reason: 'Authorization failed: Invalid authorization code' });
  });

  it("surfaces Mailchimp's detail when the token no longer works", async () => {
    const check = await verifyAppAuth(mailchimp, { ...call().auth, accessToken: 'revoked' }, { oauthClient: CLIENT });
    expect(check).toMatchObject({
      ok: false,
      reason: expect.stringContaining('answered 401: Your API key may be invalid'),
    });
  });

  it('builds the API address from the data centre alone for connections made by Automatisch', () => {
    const auth = (data: Record<string, unknown>) => ({ data, client: null, set: async () => {} });
    expect(mailchimpApi(auth({ serverPrefix: 'us21' }))).toBe('https://us21.api.mailchimp.com/3.0');
    expect(mailchimpApi(auth({ serverPrefix: 'us21', apiEndpoint: 'https://us21.api.mailchimp.com/' }))).toBe(
      'https://us21.api.mailchimp.com/3.0',
    );
  });

  it('refuses a data centre that is not one', async () => {
    const check = await verifyAppAuth(
      mailchimp,
      { accessToken: TOKEN, serverPrefix: 'us21.evil.test/' },
      { oauthClient: CLIENT },
    );
    expect(check).toEqual({
      ok: false,
      reason: 'The Mailchimp connection does not know its data centre: connect it again.',
    });
  });
});

describe('mailchimp: actions', () => {
  it('creates a campaign for a segment, then sets its HTML content', async () => {
    const output = await runAppAction(
      mailchimp,
      'createCampaign',
      call({
        campaignName: 'Spring',
        audienceId: 'list1',
        segmentOrTagId: '11',
        emailSubject: 'Hello',
        fromName: 'Ann',
        fromEmailAddress: 'ann@example.com',
        emailContent: '<p>Hi</p>',
      }),
    );
    expect(vendor.calls('POST /3.0/campaigns').at(-1)?.body).toEqual({
      type: 'regular',
      recipients: { list_id: 'list1', segment_opts: { saved_segment_id: 11 } },
      settings: { subject_line: 'Hello', title: 'Spring', from_name: 'Ann', reply_to: 'ann@example.com' },
    });
    const content = vendor.calls('PUT /3.0/campaigns/:id/content').at(-1);
    expect(content?.params.id).toBe('c9');
    expect(content?.body).toEqual({ html: '<p>Hi</p>' });
    expect(output).toMatchObject({ id: 'c9', web_id: 99 });
  });

  it('refuses a template and HTML content together', async () => {
    await expect(
      runAppAction(
        mailchimp,
        'createCampaign',
        call({
          audienceId: 'l',
          emailSubject: 's',
          fromName: 'n',
          fromEmailAddress: 'f@x.test',
          templateId: '7',
          emailContent: '<p/>',
        }),
      ),
    ).rejects.toThrow(/emailContent/);
  });

  it("sends a campaign, and surfaces Mailchimp's detail when it cannot", async () => {
    expect(await runAppAction(mailchimp, 'sendCampaign', call({ campaignId: 'c1' }))).toEqual({
      campaignId: 'c1',
      output: 'sent',
    });
    await expect(runAppAction(mailchimp, 'sendCampaign', call({ campaignId: 'c2' }))).rejects.toThrow(
      /answered 400: Your Campaign is not ready to send\./,
    );
  });

  it('adds or updates a subscriber under the hash of the lower-cased address', async () => {
    const output = await runAppAction(
      mailchimp,
      'addOrUpdateSubscriber',
      call({
        audienceId: 'list1',
        emailAddress: ' Ann@Example.com ',
        mergeFields: [{ key: 'FNAME', value: 'Ann' }],
      }),
    );
    const sent = vendor.calls('PUT /3.0/lists/:list/members/:hash').at(-1);
    expect(sent?.params.hash).toBe(hashOf('ann@example.com'));
    expect(sent?.body).toEqual({
      email_address: 'Ann@Example.com',
      status_if_new: 'subscribed',
      merge_fields: { FNAME: 'Ann' },
    });
    expect(output).toMatchObject({ list_id: 'list1', status_if_new: 'subscribed' });
  });

  it('tags a subscriber', async () => {
    const output = await runAppAction(
      mailchimp,
      'addTagsToSubscriber',
      call({ audienceId: 'list1', emailAddress: 'b@x.test', tags: 'vip, 2024' }),
    );
    const sent = vendor.calls('POST /3.0/lists/:list/members/:hash/tags').at(-1);
    expect(sent?.params.hash).toBe(hashOf('b@x.test'));
    expect(sent?.body).toEqual({
      tags: [
        { name: 'vip', status: 'active' },
        { name: '2024', status: 'active' },
      ],
    });
    expect(output).toEqual({ emailAddress: 'b@x.test', tags: ['vip', '2024'] });
  });

  it('turns a 429 into a retryable failure', async () => {
    vendor.rateLimit(1);
    const outcome = await runAppActionOutcome(mailchimp, 'sendCampaign', {
      parameters: { campaignId: 'c1' },
      auth: call().auth,
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

describe('mailchimp: triggers and dynamic data', () => {
  it('polls the openers of a campaign, latest first, then only since the last poll', async () => {
    const store = createMemoryStore();
    const poll = () =>
      runAppTrigger(mailchimp, 'emailOpened', { ...call({ audienceId: 'list1', campaignId: 'c1' }), store });
    const items = await poll();
    expect(items.map((item) => item.id)).toEqual(['e2', 'e1']);
    expect(items[1]?.data).toMatchObject({ email_address: 'a@x.test' });
    expect(vendor.calls('GET /3.0/reports/:id/open-details').at(-1)?.query).toEqual({ count: '1000', offset: '0' });
    await poll();
    const since = vendor.calls('GET /3.0/reports/:id/open-details').at(-1)?.query.since ?? '';
    expect(Date.now() - Date.parse(since)).toBeGreaterThanOrEqual(60 * 60 * 1000);
    expect(Date.now() - Date.parse(since)).toBeLessThan(61 * 60 * 1000);
  });

  it('lists audiences across pages, newest first, up to 1,000', async () => {
    const audiences = await loadAppDynamicData(mailchimp, 'listAudiences', call());
    expect(audiences.map((option) => option.value)).toEqual(AUDIENCES.slice(0, 1000).map((list) => list.id));
    const asked = vendor.calls('GET /3.0/lists').slice(-2);
    expect(asked.map((req) => req.query)).toEqual([
      { sort_field: 'date_created', sort_dir: 'DESC', count: '500', offset: '0' },
      { sort_field: 'date_created', sort_dir: 'DESC', count: '500', offset: '500' },
    ]);
  });

  it('lists campaigns of an audience, segments and tags, and templates', async () => {
    expect(await loadAppDynamicData(mailchimp, 'listCampaigns', call({ audienceId: 'list1' }))).toEqual([
      { name: 'Spring', value: 'c1' },
      { name: 'News', value: 'c2' },
    ]);
    expect(vendor.calls('GET /3.0/campaigns').at(-1)?.query).toMatchObject({ list_id: 'list1' });
    expect(await loadAppDynamicData(mailchimp, 'listSegmentsOrTags', call({ audienceId: 'list1' }))).toEqual([
      { name: 'VIP', value: '11' },
      { name: 'Recent', value: '12' },
    ]);
    expect(await loadAppDynamicData(mailchimp, 'listSegmentsOrTags', call())).toEqual([]);
    expect(await loadAppDynamicData(mailchimp, 'listTemplates', call())).toEqual([{ name: 'Plain', value: '7' }]);
  });
});

describe('mailchimp: compatibility', () => {
  it("keeps Automatisch's keys", () => {
    const { manifest } = mailchimp;
    expect(manifest.key).toBe('mailchimp');
    expect(manifest.auth.clientFields.map((field) => field.key)).toEqual(['clientId', 'clientSecret']);
    const steps = Object.fromEntries(
      [...manifest.triggers, ...manifest.actions].map((step) => [step.key, step.arguments.map((a) => a.key)]),
    );
    expect(steps).toMatchObject({
      emailOpened: ['audienceId', 'campaignType', 'campaignId'],
      newSubscribers: ['audienceId'],
      newUnsubscribers: ['audienceId'],
      createCampaign: [
        'campaignName',
        'audienceId',
        'segmentOrTagId',
        'emailSubject',
        'previewText',
        'fromName',
        'fromEmailAddress',
        'toName',
        'templateId',
        'emailContent',
      ],
      sendCampaign: ['campaignId'],
    });
    expect(Object.keys(mailchimp.dynamicData)).toEqual(
      expect.arrayContaining(['listAudiences', 'listCampaigns', 'listSegmentsOrTags', 'listTemplates']),
    );
  });
});

describe('mailchimp: audience webhooks', () => {
  it("creates an audience webhook for the event, its address carrying the flow's key, and deletes it", async () => {
    const webhookUrl = 'https://conveyor.test/webhooks/flows/f1';
    const made = (await registerAppHook(mailchimp, 'newUnsubscribers', {
      ...call({ audienceId: 'list1' }),
      webhookUrl,
    })) as { audienceId: string; id: string; key: string };
    expect(made).toEqual({ audienceId: 'list1', id: 'wh9', key: expect.stringMatching(/^[0-9a-f]{48}$/) });
    const sent = vendor.calls('POST /3.0/lists/:list/webhooks').at(-1);
    expect(sent?.params.list).toBe('list1');
    expect(sent?.body).toEqual({
      url: `${webhookUrl}?conveyor_key=${made.key}`,
      events: { unsubscribe: true },
      sources: { user: true, admin: true, api: true },
    });
    await unregisterAppHook(mailchimp, 'newUnsubscribers', {
      ...call({ audienceId: 'list1' }),
      webhookUrl,
      hook: made,
    });
    expect(vendor.calls('DELETE /3.0/lists/:list/webhooks/:id').at(-1)?.params).toEqual({ list: 'list1', id: 'wh9' });
  });

  const hook = { audienceId: 'list1', id: 'wh1', key: 'k3y-of-the-flow' };
  const form =
    'type=subscribe&fired_at=2024-05-01+10%3A00%3A00&data%5Bid%5D=8a25ff1d98&data%5Bemail%5D=ann%40x.test' +
    '&data%5Bmerges%5D%5BFNAME%5D=Ann&data%5Blist_id%5D=list1';
  const delivery = (key: string, raw = form, method = 'POST') => ({
    method,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    query: { conveyor_key: key },
    body: Object.fromEntries(new URLSearchParams(raw)),
    rawBody: raw,
  });
  const trigger = (key: string, webhook: ReturnType<typeof delivery>, withHook: unknown = hook) =>
    runAppTrigger(mailchimp, key, { ...call({ audienceId: 'list1' }), webhook, hook: withHook });

  it('hands on a subscribe event, its bracketed fields rebuilt as objects', async () => {
    expect(await trigger('newSubscribers', delivery(hook.key))).toEqual([
      {
        id: 'subscribe:8a25ff1d98:2024-05-01 10:00:00',
        data: {
          type: 'subscribe',
          fired_at: '2024-05-01 10:00:00',
          data: { id: '8a25ff1d98', email: 'ann@x.test', merges: { FNAME: 'Ann' }, list_id: 'list1' },
        },
      },
    ]);
    expect(await trigger('newUnsubscribers', delivery(hook.key))).toEqual([]);
  });

  it("answers Mailchimp's GET check of the address, and starts nothing", async () => {
    const check = trigger('newSubscribers', delivery('', '', 'GET'), null);
    await expect(check).rejects.toBeInstanceOf(WebhookReplyRequested);
    await expect(check).rejects.toMatchObject({ reply: { status: 200 } });
  });

  it("refuses a delivery without the flow's key in its address", async () => {
    await expect(trigger('newSubscribers', delivery('guess'))).rejects.toBeInstanceOf(WebhookRefusedError);
    await expect(trigger('newSubscribers', delivery(hook.key), null)).rejects.toBeInstanceOf(WebhookRefusedError);
  });

  it('never lets a field name reach an object prototype', () => {
    const parsed = nestedForm('__proto__%5Bpolluted%5D=1&data%5Bconstructor%5D%5Bx%5D=2&type=subscribe');
    expect(parsed).toEqual({ type: 'subscribe' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
