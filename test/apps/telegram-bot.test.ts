import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCatalog } from '../../adapters/apps/app-catalog.js';
import {
  registerAppHook,
  runAppAction,
  runAppTrigger,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { WebhookRefusedError } from '../../adapters/apps/sdk/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import { telegramBot } from '../../adapters/apps/telegram-bot/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';

const TOKEN = '123456789:AAH-fake_token_for_tests';
const BOT = `/bot${TOKEN}`;

/** The Bot API's refusal: `ok` false, the code (also the HTTP status) and a description. */
const refusal = (code: number, description: string, extra: object = {}) =>
  reply(code, { ok: false, error_code: code, description, ...extra });

const sent = (body: Record<string, unknown>) => ({
  ok: true,
  result: { message_id: 42, date: 1_700_000_000, chat: { id: Number(body.chat_id), type: 'private' }, ...body },
});

let vendor: FakeVendor;
/** The bot's one webhook address, as setWebhook and deleteWebhook leave it. */
let webhookUrl = '';
beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) => req.path.startsWith(`${BOT}/`),
    unauthorized: refusal(401, 'Unauthorized'),
    rateLimited: refusal(429, 'Too Many Requests: retry after 7', { parameters: { retry_after: 7 } }),
    routes: {
      [`POST ${BOT}/getMe`]: () => ({
        ok: true,
        result: { id: 123456789, is_bot: true, first_name: 'Deploy Bot', username: 'deploy_bot' },
      }),
      [`POST ${BOT}/sendMessage`]: (req) => {
        const body = req.body as Record<string, unknown>;
        return body.chat_id === '404' ? refusal(400, 'Bad Request: chat not found') : sent(body);
      },
      [`POST ${BOT}/setWebhook`]: (req) => {
        webhookUrl = (req.body as { url: string }).url;
        return { ok: true, result: true, description: 'Webhook was set' };
      },
      [`POST ${BOT}/getWebhookInfo`]: () => ({ ok: true, result: { url: webhookUrl, pending_update_count: 0 } }),
      [`POST ${BOT}/deleteWebhook`]: () => {
        webhookUrl = '';
        return { ok: true, result: true, description: 'Webhook was deleted' };
      },
      [`POST ${BOT}/sendPhoto`]: (req) => sent(req.body as Record<string, unknown>),
      [`POST ${BOT}/sendDocument`]: (req) => sent(req.body as Record<string, unknown>),
    },
  });
});
afterAll(() => vendor.close());

const call = (parameters: Record<string, unknown> = {}) => ({
  auth: { token: TOKEN },
  baseUrl: vendor.url,
  parameters,
});

describe('telegram-bot: connection and actions', () => {
  it('verifies the token with getMe, and names the bot', async () => {
    expect(await verifyAppAuth(telegramBot, { token: TOKEN }, { baseUrl: vendor.url })).toMatchObject({
      ok: true,
      screenName: 'Deploy Bot (@deploy_bot)',
    });
    const refused = await verifyAppAuth(telegramBot, { token: '999:wrong-token' }, { baseUrl: vendor.url });
    expect(refused).toEqual({ ok: false, reason: 'POST getMe answered 401: Unauthorized' });
  });

  it('sends a message: the Bot API method with its fields, the sent message as output', async () => {
    const output = await runAppAction(
      telegramBot,
      'sendMessage',
      call({ chatId: '1001', text: '*Deployed*', parseMode: 'MarkdownV2' }),
    );
    expect(output).toMatchObject({ message_id: 42, chat: { id: 1001 }, text: '*Deployed*' });
    expect(vendor.calls(`POST ${BOT}/sendMessage`).at(-1)?.body).toEqual({
      chat_id: '1001',
      text: '*Deployed*',
      disable_notification: false,
      parse_mode: 'MarkdownV2',
    });
  });

  it('sends a photo and a document by URL, silently when asked', async () => {
    await runAppAction(
      telegramBot,
      'sendPhoto',
      call({ chatId: '@news', photo: 'https://example.com/a.png', caption: 'Chart', disableNotification: true }),
    );
    expect(vendor.calls(`POST ${BOT}/sendPhoto`).at(-1)?.body).toEqual({
      chat_id: '@news',
      photo: 'https://example.com/a.png',
      caption: 'Chart',
      disable_notification: true,
    });
    await runAppAction(telegramBot, 'sendDocument', call({ chatId: '1001', document: 'BQACAgIAAx0' }));
    expect(vendor.calls(`POST ${BOT}/sendDocument`).at(-1)?.body).toEqual({
      chat_id: '1001',
      document: 'BQACAgIAAx0',
      disable_notification: false,
    });
  });

  it('surfaces Telegram’s description by the method’s name, never the token', async () => {
    const failure = await runAppAction(telegramBot, 'sendMessage', call({ chatId: '404', text: 'x' })).catch(
      (error: unknown) => error as Error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe('POST sendMessage answered 400: Bad Request: chat not found');
    expect((failure as Error).message).not.toContain(TOKEN);
  });

  it('turns a 429 into a retryable failure after Telegram’s retry_after, and logs no token', async () => {
    const logger = new CapturingLogger();
    const catalog = createAppCatalog({
      apps: [telegramBot],
      allowPrivateNetworks: true,
      logger,
      appAddresses: { APP_BASE_URL_TELEGRAM_BOT: vendor.url },
    });
    vendor.rateLimit(1);
    const outcome = await createStepRunner(catalog, [telegramBot]).runAction({
      appKey: 'telegram-bot',
      key: 'sendMessage',
      parameters: { chatId: '1001', text: 'x' },
      connection: { credentials: { token: TOKEN }, oauth: null },
      execution: null,
    } as never);
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 7000 } });
    // The token is in the Bot API's paths: the request's log line shows it masked.
    expect(logger.text()).toContain('/bot[redacted]/sendMessage');
    expect(logger.text()).not.toContain(TOKEN);
    await catalog.close();
  });
});

describe('telegram-bot: newMessage registration', () => {
  const flowUrl = 'https://conveyor.example/webhooks/flows/f1';

  it('sets the bot’s webhook to the flow with a fresh secret token and the update type chosen', async () => {
    const hook = await registerAppHook(telegramBot, 'newMessage', {
      ...call({ allowedUpdates: 'callback_query' }),
      webhookUrl: flowUrl,
    });
    expect(hook).toEqual({ secret: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(vendor.calls(`POST ${BOT}/setWebhook`).at(-1)?.body).toEqual({
      url: flowUrl,
      secret_token: (hook as { secret: string }).secret,
      allowed_updates: ['callback_query'],
    });
    const again = await registerAppHook(telegramBot, 'newMessage', { ...call(), webhookUrl: flowUrl });
    expect(again).not.toEqual(hook);
    expect(vendor.calls(`POST ${BOT}/setWebhook`).at(-1)?.body).toMatchObject({ allowed_updates: [] });
  });

  it('deletes the webhook on unpublish, unless another flow’s address replaced it', async () => {
    const hook = await registerAppHook(telegramBot, 'newMessage', { ...call(), webhookUrl: flowUrl });
    await registerAppHook(telegramBot, 'newMessage', {
      ...call(),
      webhookUrl: 'https://conveyor.example/webhooks/flows/f2',
    });
    await unregisterAppHook(telegramBot, 'newMessage', { ...call(), webhookUrl: flowUrl, hook });
    expect(webhookUrl).toBe('https://conveyor.example/webhooks/flows/f2');
    const deletions = vendor.calls(`POST ${BOT}/deleteWebhook`).length;
    await unregisterAppHook(telegramBot, 'newMessage', {
      ...call(),
      webhookUrl: 'https://conveyor.example/webhooks/flows/f2',
      hook,
    });
    expect(vendor.calls(`POST ${BOT}/deleteWebhook`)).toHaveLength(deletions + 1);
    expect(webhookUrl).toBe('');
  });
});

describe('telegram-bot: newMessage deliveries', () => {
  const update = { update_id: 9001, message: { message_id: 5, chat: { id: 1001, type: 'private' }, text: 'hi' } };
  const delivery = (secret: string | null) => ({
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(secret !== null && { 'x-telegram-bot-api-secret-token': secret }),
    },
    query: {},
    body: update,
  });

  it('takes an update carrying the secret the webhook was registered with, its update_id as id', async () => {
    const items = await runAppTrigger(telegramBot, 'newMessage', {
      ...call(),
      webhook: delivery('s3cret-registered'),
      hook: { secret: 's3cret-registered' },
    });
    expect(items).toEqual([{ id: '9001', data: update }]);
  });

  it('refuses an update without the secret, with another one, or when no webhook was registered', async () => {
    for (const [secret, hook] of [
      [null, { secret: 's3cret-registered' }],
      ['s3cret-guessed', { secret: 's3cret-registered' }],
      ['s3cret-registered', null],
    ] as const) {
      await expect(
        runAppTrigger(telegramBot, 'newMessage', { ...call(), webhook: delivery(secret), hook }),
      ).rejects.toBeInstanceOf(WebhookRefusedError);
    }
  });
});

describe('telegram-bot: compatibility', () => {
  it('keeps Automatisch’s keys', () => {
    const { manifest } = telegramBot;
    expect(manifest.key).toBe('telegram-bot');
    expect(manifest.auth.fields.map((field) => field.key)).toEqual(['token']);
    expect(manifest.triggers.map((t) => [t.key, t.type, t.arguments.map((a) => a.key)])).toEqual([
      ['newMessage', 'webhook', ['allowedUpdates']],
    ]);
    expect(manifest.actions.find((a) => a.key === 'sendMessage')?.arguments.map((a) => a.key)).toEqual([
      'chatId',
      'text',
      'disableNotification',
      'parseMode',
    ]);
  });
});
