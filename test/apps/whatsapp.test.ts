import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCatalog } from '../../adapters/apps/app-catalog.js';
import {
  loadAppDynamicData,
  registerAppHook,
  runAppAction,
  runAppTrigger,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { TemporaryError, WebhookRefusedError, WebhookReplyRequested } from '../../adapters/apps/sdk/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import { whatsapp } from '../../adapters/apps/whatsapp/index.js';
import { verifyTokenOf } from '../../adapters/apps/whatsapp/webhooks.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';

const TOKEN = 'EAAG-system-user-token';
const PHONE = '106540352242922';
const WABA = '102290129340398';
const APP_SECRET = 'meta-app-secret-1';
const V = '/v24.0';
const TEMPLATES = Array.from({ length: 5 }, (_, i) => [
  { name: `order_update_${i}`, language: 'en_US', status: 'APPROVED', id: `t${i}a` },
  { name: `order_update_${i}`, language: 'de', status: i === 4 ? 'REJECTED' : 'APPROVED', id: `t${i}b` },
]).flat();

/** The Graph API's error body. */
const graphError = (status: number, code: number, message: string) =>
  reply(status, { error: { message, type: 'OAuthException', code, fbtrace_id: 'Az8or2yhqkZfEZ-_4Qn_Bam' } });

let vendor: FakeVendor;
/** The number's webhook override, as Meta keeps it. */
let override = '';
beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) => req.headers.authorization === `Bearer ${TOKEN}`,
    unauthorized: graphError(401, 190, 'Invalid OAuth access token - Cannot parse access token'),
    routes: {
      [`GET ${V}/:id`]: (req) => {
        if (req.params.id !== PHONE) return graphError(400, 100, 'Unsupported get request.');
        if (req.query.fields === 'webhook_configuration') {
          return {
            id: PHONE,
            webhook_configuration: {
              ...(override && { phone_number: override }),
              application: 'https://app.example/wa',
            },
          };
        }
        return { id: PHONE, verified_name: 'Lucky Shrub', display_phone_number: '+1 555-025-3483' };
      },
      [`POST ${V}/:id`]: (req) => {
        const configuration = (req.body as { webhook_configuration?: { override_callback_uri?: string } })
          .webhook_configuration;
        if (req.params.id !== PHONE || configuration?.override_callback_uri === undefined) {
          return graphError(400, 100, 'Invalid parameter');
        }
        override = configuration.override_callback_uri;
        return { success: true };
      },
      [`POST ${V}/:id/messages`]: (req) => {
        const body = req.body as { to: string };
        if (body.to === '000') return graphError(400, 131030, '(#131030) Recipient phone number not in allowed list');
        if (body.to === '111') return graphError(400, 130429, '(#130429) Rate limit hit');
        return {
          messaging_product: 'whatsapp',
          contacts: [{ input: body.to, wa_id: body.to.replace('+', '') }],
          messages: [{ id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA' }],
        };
      },
      // Two per page; `next` and the `after` cursor while more follow, as the Graph API pages.
      [`GET ${V}/:waba/message_templates`]: (req, fake) => {
        const start = req.query.after ? Number(req.query.after) : 0;
        const more = start + 2 < TEMPLATES.length;
        return {
          data: TEMPLATES.slice(start, start + 2),
          paging: {
            cursors: { before: String(start), after: String(start + 2) },
            ...(more && { next: `${fake.url}${V}/${WABA}/message_templates?after=${start + 2}` }),
          },
        };
      },
    },
  });
});
afterAll(() => vendor.close());

const auth = { accessToken: TOKEN, phoneNumberId: PHONE, businessAccountId: WABA, appSecret: APP_SECRET };
const call = (parameters: Record<string, unknown> = {}) => ({ auth, baseUrl: `${vendor.url}${V}`, parameters });
const sentBody = () => vendor.calls(`POST ${V}/:id/messages`).at(-1)?.body;

describe('whatsapp: connection and actions', () => {
  it('verifies the token on the business number, named by its verified name and number', async () => {
    expect(await verifyAppAuth(whatsapp, auth, { baseUrl: `${vendor.url}${V}` })).toMatchObject({
      ok: true,
      screenName: 'Lucky Shrub +1 555-025-3483',
    });
    expect(vendor.calls(`GET ${V}/:id`).at(-1)?.query).toEqual({ fields: 'display_phone_number,verified_name' });
    const refused = await verifyAppAuth(
      whatsapp,
      { ...auth, accessToken: 'EAAG-expired' },
      { baseUrl: `${vendor.url}${V}` },
    );
    expect(refused).toEqual({
      ok: false,
      reason: expect.stringContaining('answered 401: Invalid OAuth access token - Cannot parse access token'),
    });
  });

  it('sends a text message from the connection’s number', async () => {
    const output = await runAppAction(
      whatsapp,
      'sendTextMessage',
      call({ to: ' +4915112345678 ', text: 'Your order shipped' }),
    );
    expect(output).toMatchObject({
      contacts: [{ wa_id: '4915112345678' }],
      messages: [{ id: expect.stringMatching(/^wamid\./) }],
    });
    expect(vendor.calls(`POST ${V}/:id/messages`).at(-1)?.path).toBe(`${V}/${PHONE}/messages`);
    expect(sentBody()).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '+4915112345678',
      type: 'text',
      text: { body: 'Your order shipped', preview_url: false },
    });
  });

  it('sends a template with positional and named body parameters', async () => {
    await runAppAction(
      whatsapp,
      'sendTemplateMessage',
      call({
        to: '4915112345678',
        templateName: 'order_update_1',
        languageCode: 'de',
        bodyParameters: [
          { key: '1', value: 'Ann' },
          { key: 'order_id', value: 'A-17' },
        ],
      }),
    );
    expect(sentBody()).toMatchObject({
      type: 'template',
      template: {
        name: 'order_update_1',
        language: { code: 'de' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ann' },
              { type: 'text', parameter_name: 'order_id', text: 'A-17' },
            ],
          },
        ],
      },
    });
    await runAppAction(whatsapp, 'sendTemplateMessage', call({ to: '4915112345678', templateName: 'hello_world' }));
    expect(sentBody()).toMatchObject({ template: { name: 'hello_world', language: { code: 'en_US' } } });
    expect((sentBody() as { template: object }).template).not.toHaveProperty('components');
  });

  it('sends a document by link with its caption and file name', async () => {
    await runAppAction(
      whatsapp,
      'sendMediaMessage',
      call({
        to: '4915112345678',
        mediaType: 'document',
        link: 'https://example.com/i.pdf',
        caption: 'Invoice',
        filename: 'i.pdf',
      }),
    );
    expect(sentBody()).toMatchObject({
      type: 'document',
      document: { link: 'https://example.com/i.pdf', caption: 'Invoice', filename: 'i.pdf' },
    });
    await runAppAction(
      whatsapp,
      'sendMediaMessage',
      call({ to: '4915112345678', mediaType: 'audio', link: 'https://example.com/a.ogg', caption: 'x' }),
    );
    expect(sentBody()).toMatchObject({ type: 'audio', audio: { link: 'https://example.com/a.ogg' } });
  });

  it('surfaces Meta’s message, and takes its throttling for a temporary failure', async () => {
    await expect(runAppAction(whatsapp, 'sendTextMessage', call({ to: '000', text: 'x' }))).rejects.toThrow(
      'answered 400: (#131030) Recipient phone number not in allowed list',
    );
    const throttled = await runAppAction(whatsapp, 'sendTextMessage', call({ to: '111', text: 'x' })).catch(
      (e: unknown) => e,
    );
    expect(throttled).toBeInstanceOf(TemporaryError);
    expect(throttled).toMatchObject({
      retryAfterSeconds: 60,
      message: expect.stringContaining('(#130429) Rate limit hit'),
    });
  });

  it('turns a 429 and a throttling code into retryable failures', async () => {
    const catalog = createAppCatalog({
      apps: [whatsapp],
      allowPrivateNetworks: true,
      logger: new CapturingLogger(),
      appAddresses: { APP_BASE_URL_WHATSAPP: `${vendor.url}${V}` },
    });
    const runner = createStepRunner(catalog, [whatsapp]);
    const run = (to: string) =>
      runner.runAction({
        appKey: 'whatsapp',
        key: 'sendTextMessage',
        parameters: { to, text: 'x' },
        connection: { credentials: auth, oauth: null },
        execution: null,
      } as never);
    vendor.rateLimit(1);
    expect(await run('4915112345678')).toMatchObject({ kind: 'failure', failure: { retryable: true } });
    expect(await run('111')).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 60_000 } });
    await catalog.close();
  });

  it('lists the approved templates across pages, with their languages', async () => {
    const options = await loadAppDynamicData(whatsapp, 'listTemplates', call());
    expect(options).toHaveLength(5);
    expect(options[0]).toEqual({ name: 'order_update_0 (en_US, de)', value: 'order_update_0' });
    expect(options[4]).toEqual({ name: 'order_update_4 (en_US)', value: 'order_update_4' });
    expect(vendor.calls(`GET ${V}/:waba/message_templates`).at(-1)?.query).toMatchObject({
      status: 'APPROVED',
      after: '8',
    });
  });
});

describe('whatsapp: registration', () => {
  const flowUrl = 'https://conveyor.example/webhooks/flows/f1';

  it('points the number’s webhook at the flow, with the verify token its handshake accepts', async () => {
    expect(await registerAppHook(whatsapp, 'newMessage', { ...call(), webhookUrl: flowUrl })).toEqual({ url: flowUrl });
    const sent = vendor.calls(`POST ${V}/:id`).at(-1)?.body as {
      webhook_configuration: { override_callback_uri: string; verify_token: string };
    };
    expect(sent.webhook_configuration.override_callback_uri).toBe(flowUrl);
    // Meta checks the address with the token it was given: the trigger answers that check.
    const answer = await runAppTrigger(whatsapp, 'newMessage', {
      ...call(),
      webhook: {
        method: 'GET',
        headers: {},
        query: {
          'hub.mode': 'subscribe',
          'hub.verify_token': sent.webhook_configuration.verify_token,
          'hub.challenge': '42',
        },
        body: null,
      },
    }).catch((error: unknown) => error);
    expect((answer as WebhookReplyRequested).reply).toMatchObject({ status: 200, body: '42' });
  });

  it('removes the override on unpublish, unless the number points elsewhere by then', async () => {
    await registerAppHook(whatsapp, 'newMessageStatus', { ...call(), webhookUrl: flowUrl });
    await unregisterAppHook(whatsapp, 'newMessageStatus', { ...call(), webhookUrl: flowUrl, hook: { url: flowUrl } });
    expect(override).toBe('');
    expect(vendor.calls(`POST ${V}/:id`).at(-1)?.body).toEqual({
      webhook_configuration: { override_callback_uri: '' },
    });
    override = 'https://conveyor.example/webhooks/flows/f2';
    const writes = vendor.calls(`POST ${V}/:id`).length;
    await unregisterAppHook(whatsapp, 'newMessage', { ...call(), webhookUrl: flowUrl, hook: { url: flowUrl } });
    expect(vendor.calls(`POST ${V}/:id`)).toHaveLength(writes);
  });

  it('refuses to register without the app secret the deliveries are checked with', async () => {
    const { appSecret: _, ...withoutSecret } = auth;
    await expect(
      registerAppHook(whatsapp, 'newMessage', {
        auth: withoutSecret,
        baseUrl: `${vendor.url}${V}`,
        webhookUrl: flowUrl,
      }),
    ).rejects.toThrow('Enter the Meta app’s secret in the WhatsApp connection');
  });
});

describe('whatsapp: deliveries', () => {
  const notification = {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: WABA,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550253483', phone_number_id: PHONE },
              contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }],
              messages: [
                {
                  from: '16505551234',
                  id: 'wamid.IN1',
                  timestamp: '1749416383',
                  type: 'text',
                  text: { body: 'Does it come in red?' },
                },
              ],
              statuses: [
                { id: 'wamid.OUT1', status: 'delivered', timestamp: '1750263773', recipient_id: '16505551234' },
                { id: 'wamid.OUT1', status: 'read', timestamp: '1750263780', recipient_id: '16505551234' },
              ],
            },
          },
          {
            field: 'messages',
            value: { metadata: { phone_number_id: '999' }, messages: [{ from: '1', id: 'wamid.OTHER' }] },
          },
        ],
      },
    ],
  };
  const rawBody = JSON.stringify(notification);
  const signed = (secret: string, body = rawBody) =>
    `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const delivery = (signature: string | null, body = rawBody) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature && { 'x-hub-signature-256': signature }) },
    query: {},
    body: JSON.parse(body) as unknown,
    rawBody: body,
  });

  it('takes a delivery Meta signed: the number’s messages with their contact, and each status apart', async () => {
    const messages = await runAppTrigger(whatsapp, 'newMessage', { ...call(), webhook: delivery(signed(APP_SECRET)) });
    expect(messages).toEqual([
      {
        id: 'wamid.IN1',
        data: expect.objectContaining({
          text: { body: 'Does it come in red?' },
          contact: { profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' },
          metadata: { display_phone_number: '15550253483', phone_number_id: PHONE },
        }),
      },
    ]);
    const statuses = await runAppTrigger(whatsapp, 'newMessageStatus', {
      ...call(),
      webhook: delivery(signed(APP_SECRET)),
    });
    expect(statuses.map((item) => item.id)).toEqual(['wamid.OUT1:delivered', 'wamid.OUT1:read']);
  });

  it('refuses a delivery without a signature, signed with another secret, or changed since', async () => {
    for (const forged of [
      delivery(null),
      delivery(signed('another-secret')),
      delivery(signed(APP_SECRET), rawBody.replace('red', 'blue')),
    ]) {
      await expect(runAppTrigger(whatsapp, 'newMessage', { ...call(), webhook: forged })).rejects.toBeInstanceOf(
        WebhookRefusedError,
      );
    }
  });

  it('answers Meta’s check of the address with the challenge when the verify token is the connection’s', async () => {
    const check = (token: string) => ({
      method: 'GET',
      headers: {},
      query: { 'hub.mode': 'subscribe', 'hub.verify_token': token, 'hub.challenge': '1158201444' },
      body: null,
    });
    const answer = await runAppTrigger(whatsapp, 'newMessage', {
      ...call(),
      webhook: check(verifyTokenOf({ data: auth })),
    }).catch((error: unknown) => error);
    expect(answer).toBeInstanceOf(WebhookReplyRequested);
    expect((answer as WebhookReplyRequested).reply).toMatchObject({ status: 200, body: '1158201444' });
    await expect(
      runAppTrigger(whatsapp, 'newMessage', { ...call(), webhook: check('guessed') }),
    ).rejects.toBeInstanceOf(WebhookRefusedError);
    expect(verifyTokenOf({ data: { ...auth, appSecret: 'other' } })).not.toBe(verifyTokenOf({ data: auth }));
  });
});
