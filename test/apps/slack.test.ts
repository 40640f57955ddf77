import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCatalog } from '../../adapters/apps/app-catalog.js';
import {
  loadAppDynamicData,
  loadAppDynamicFields,
  runAppAction,
  runAppTrigger,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { createMemoryStore, WebhookRefusedError, type WebhookReplyRequested } from '../../adapters/apps/sdk/index.js';
import { slack } from '../../adapters/apps/slack/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';

const BOT = 'xoxb-bot-token-1';
const USER = 'xoxp-user-token-1';
const ROTATED = 'xoxe.xoxb-rotated-2';
const CLIENT = {
  clientId: '2141029472.691202649728',
  clientSecret: 'slack-client-secret',
  signingSecret: 'slack-signing-secret',
};
const CHANNELS = Array.from({ length: 5 }, (_, i) => ({
  id: `C0${i}`,
  name: `channel-${i}`,
  created: 1_700_000_000 + i * 60,
}));
const MEMBERS = [
  { id: 'U01', name: 'ann', real_name: 'Ann Smith' },
  { id: 'U02', name: 'bob', real_name: '' },
  { id: 'U03', name: 'gone', real_name: 'Gone', deleted: true },
];
const HISTORY = [
  { type: 'message', ts: '1700000300.000300', text: 'third', user: 'U01' },
  { type: 'message', ts: '1700000200.000200', subtype: 'channel_join', text: '<@U02> has joined the channel' },
  { type: 'message', ts: '1700000100.000100', subtype: 'bot_message', text: 'first', bot_id: 'B1' },
];

/** Slack's refusal: status 200, `ok` false and an error code. */
const refusal = (error: string, extra: object = {}) => ({ ok: false, error, ...extra });
const tokenOf = (req: FakeRequest) => req.headers.authorization?.replace(/^Bearer /, '');

/** Cursor pages of two, as Slack's `response_metadata.next_cursor`. */
const pageOf = <T>(items: readonly T[], req: FakeRequest, key: string) => {
  const start = Number(req.query.cursor ?? 0);
  const next = start + 2 < items.length ? String(start + 2) : '';
  return { ok: true, [key]: items.slice(start, start + 2), response_metadata: { next_cursor: next } };
};

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) => req.path === '/api/oauth.v2.access' || [BOT, USER, ROTATED].includes(tokenOf(req) ?? ''),
    unauthorized: reply(200, refusal('invalid_auth')),
    rateLimited: reply(429, refusal('ratelimited'), { 'retry-after': '3' }),
    routes: {
      'POST /api/oauth.v2.access': (req) => {
        const form = req.body as Record<string, string>;
        if (form.client_secret !== CLIENT.clientSecret) return refusal('invalid_client_id');
        if (form.grant_type === 'refresh_token') {
          return form.refresh_token === 'xoxe-1-refresh'
            ? {
                ok: true,
                access_token: ROTATED,
                token_type: 'bot',
                refresh_token: 'xoxe-1-refresh-2',
                expires_in: 43200,
              }
            : refusal('invalid_refresh_token');
        }
        if (form.code !== 'good-code') return refusal('invalid_code');
        return {
          ok: true,
          access_token: BOT,
          token_type: 'bot',
          scope: 'channels:read,chat:write',
          bot_user_id: 'U0BOT',
          app_id: 'A0APP',
          team: { id: 'T01', name: 'Acme' },
          enterprise: null,
          authed_user: { id: 'U01', scope: 'chat:write,search:read', access_token: USER, token_type: 'user' },
        };
      },
      'GET /api/auth.test': (req) => ({
        ok: true,
        team: 'Acme',
        user: tokenOf(req) === USER ? 'ann' : 'conveyorbot',
        team_id: 'T01',
      }),
      'GET /api/conversations.list': (req) => pageOf(CHANNELS, req, 'channels'),
      'GET /api/users.list': (req) => pageOf(MEMBERS, req, 'members'),
      'POST /api/chat.postMessage': (req) => {
        const body = req.body as { channel: string; text: string };
        if (body.channel === 'C404') return refusal('channel_not_found');
        return {
          ok: true,
          channel: body.channel,
          ts: '1700000400.000400',
          message: { text: body.text, type: 'message' },
        };
      },
      'GET /api/search.messages': (req) =>
        tokenOf(req) !== USER
          ? refusal('not_allowed_token_type')
          : {
              ok: true,
              query: req.query.query,
              messages: {
                total: 1,
                matches:
                  req.query.query === 'nothing'
                    ? []
                    : [{ ts: '1700000100.000100', text: 'deploy done', channel: { id: 'C01' } }],
              },
            },
      'GET /api/users.lookupByEmail': (req) =>
        req.query.email === 'ann@acme.test' ? { ok: true, user: MEMBERS[0] } : refusal('users_not_found'),
      'GET /api/conversations.history': (req) => ({
        ok: true,
        messages: HISTORY.filter((m) => !req.query.oldest || m.ts > req.query.oldest),
        has_more: false,
      }),
    },
  });
});
afterAll(() => vendor.close());

const connection = { accessToken: BOT, userAccessToken: USER, userId: 'U01', teamName: 'Acme' };
const call = (parameters: Record<string, unknown> = {}, auth: Record<string, unknown> = connection) => ({
  auth,
  baseUrl: `${vendor.url}/api`,
  authUrl: vendor.url,
  oauthClient: CLIENT,
  parameters,
});
const lastPost = () => vendor.calls('POST /api/chat.postMessage').at(-1);

describe('slack: connection', () => {
  it('asks for the bot scopes and the member scopes on Slack’s consent page', () => {
    const catalog = createAppCatalog({ apps: [slack], allowPrivateNetworks: true, logger: new CapturingLogger() });
    const url = new URL(
      catalog.authorizationUrl('slack', {
        client: CLIENT,
        redirectUri: 'https://conveyor.test/callback',
        state: 's-1',
      }) ?? '',
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://slack.com/oauth/v2/authorize');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: CLIENT.clientId,
      redirect_uri: 'https://conveyor.test/callback',
      state: 's-1',
      response_type: 'code',
      user_scope: 'chat:write,channels:history,groups:history,search:read',
    });
    expect(url.searchParams.get('scope')?.split(',')).toEqual(
      expect.arrayContaining(['chat:write', 'chat:write.customize', 'users:read.email', 'channels:history']),
    );
  });

  it('exchanges the code, keeps the member’s token beside the bot’s, and names the member and workspace', async () => {
    const check = await verifyAppAuth(slack, { code: 'good-code', state: 's-1' }, call());
    expect(check).toMatchObject({
      ok: true,
      screenName: 'ann @ Acme',
      credentials: {
        accessToken: BOT,
        userAccessToken: USER,
        userId: 'U01',
        botUserId: 'U0BOT',
        teamId: 'T01',
        teamName: 'Acme',
      },
    });
    expect(vendor.calls('POST /api/oauth.v2.access').at(-1)?.body).toMatchObject({
      grant_type: 'authorization_code',
      code: 'good-code',
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
    });
  });

  it('reports Slack’s refusal of a code, and of a token that no longer works', async () => {
    expect(await verifyAppAuth(slack, { code: 'stale-code', state: 's-1' }, call())).toEqual({
      ok: false,
      reason: 'Authorization failed: invalid_code',
    });
    expect(await verifyAppAuth(slack, { accessToken: 'xoxb-revoked' }, call())).toEqual({
      ok: false,
      reason: 'Slack’s auth.test answered invalid_auth.',
    });
  });

  it('renews a rotating bot token before it expires, and keeps the member’s token', async () => {
    const rotating = {
      ...connection,
      accessToken: 'xoxe.xoxb-expired',
      refreshToken: 'xoxe-1-refresh',
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    };
    await runAppAction(slack, 'findUserByEmail', call({ email: 'ann@acme.test' }, rotating));
    expect(vendor.calls('POST /api/oauth.v2.access').at(-1)?.body).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: 'xoxe-1-refresh',
    });
    expect(tokenOf(vendor.calls('GET /api/users.lookupByEmail').at(-1) as FakeRequest)).toBe(ROTATED);
  });
});

describe('slack: actions', () => {
  it('sends a message to a channel as the member who connected', async () => {
    const output = await runAppAction(
      slack,
      'sendMessageToChannel',
      call({ channel: 'C01', message: 'Deployed *v2*' }),
    );
    expect(output).toMatchObject({ ok: true, channel: 'C01', ts: '1700000400.000400' });
    expect(tokenOf(lastPost() as FakeRequest)).toBe(USER);
    expect(lastPost()?.body).toEqual({ channel: 'C01', text: 'Deployed *v2*' });
  });

  it('sends as the bot, renamed, with an emoji or an image as its icon', async () => {
    await runAppAction(
      slack,
      'sendMessageToChannel',
      call({ channel: 'C01', message: 'Hi', sendAsBot: true, botName: 'Deploys', botIcon: ':rocket:' }),
    );
    expect(tokenOf(lastPost() as FakeRequest)).toBe(BOT);
    expect(lastPost()?.body).toEqual({ channel: 'C01', text: 'Hi', username: 'Deploys', icon_emoji: ':rocket:' });
    await runAppAction(
      slack,
      'sendDirectMessage',
      call({ toUsername: 'U02', message: 'Hi', sendAsBot: 'true', botIcon: 'https://example.com/bot.png' }),
    );
    expect(lastPost()?.body).toEqual({
      channel: 'U02',
      text: 'Hi',
      username: 'Conveyor',
      icon_url: 'https://example.com/bot.png',
    });
  });

  it('surfaces Slack’s error code when it refuses a message', async () => {
    await expect(runAppAction(slack, 'sendMessageToChannel', call({ channel: 'C404', message: 'x' }))).rejects.toThrow(
      'Slack’s chat.postMessage answered channel_not_found.',
    );
  });

  it('finds the best match of a search with the member’s token, or nothing', async () => {
    expect(await runAppAction(slack, 'findMessage', call({ query: 'deploy in:#ops' }))).toMatchObject({
      text: 'deploy done',
    });
    expect(vendor.calls('GET /api/search.messages').at(-1)?.query).toEqual({
      query: 'deploy in:#ops',
      sort: 'score',
      sort_dir: 'desc',
      count: '1',
    });
    expect(await runAppAction(slack, 'findMessage', call({ query: 'nothing' }))).toBeNull();
    await expect(runAppAction(slack, 'findMessage', call({ query: 'x' }, { accessToken: BOT }))).rejects.toThrow(
      'Searching Slack needs a member’s token',
    );
  });

  it('finds a member by email, or nothing when no member has it', async () => {
    expect(await runAppAction(slack, 'findUserByEmail', call({ email: ' ann@acme.test ' }))).toEqual(MEMBERS[0]);
    expect(tokenOf(vendor.calls('GET /api/users.lookupByEmail').at(-1) as FakeRequest)).toBe(BOT);
    expect(await runAppAction(slack, 'findUserByEmail', call({ email: 'nobody@acme.test' }))).toBeNull();
  });

  it('turns Slack’s 429 into a retryable failure after its Retry-After', async () => {
    const catalog = createAppCatalog({
      apps: [slack],
      allowPrivateNetworks: true,
      logger: new CapturingLogger(),
      appAddresses: { APP_BASE_URL_SLACK: `${vendor.url}/api` },
    });
    vendor.rateLimit(1);
    const outcome = await createStepRunner(catalog, [slack]).runAction({
      appKey: 'slack',
      key: 'sendMessageToChannel',
      parameters: { channel: 'C01', message: 'x' },
      connection: { credentials: connection, oauth: { client: CLIENT, redirectUri: 'https://conveyor.test/callback' } },
      execution: null,
    } as never);
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 3000 } });
    await catalog.close();
  });
});

describe('slack: triggers', () => {
  it('polls a channel’s history as the member: posted messages newest first, then after what an earlier poll saw', async () => {
    const store = createMemoryStore();
    const poll = () => runAppTrigger(slack, 'newMessage', { ...call({ channel: 'C01' }), store });
    const items = await poll();
    expect(items.map((item) => item.id)).toEqual(['1700000300.000300', '1700000100.000100']);
    const history = () => vendor.calls('GET /api/conversations.history').at(-1) as FakeRequest;
    expect(tokenOf(history())).toBe(USER);
    expect(history().query).toEqual({ channel: 'C01', limit: '100' });
    // Slack's `oldest` lags one poll, so that a poll whose runs were not stored is read again.
    await poll();
    expect(await poll()).toEqual([]);
    expect(history().query).toMatchObject({ oldest: '1700000300.000300' });
  });

  it('polls the public channels across pages, newest first', async () => {
    const items = await runAppTrigger(slack, 'newChannel', call());
    expect(items.map((item) => item.id)).toEqual(['C04', 'C03', 'C02', 'C01', 'C00']);
    expect(vendor.calls('GET /api/conversations.list').at(-1)?.query).toMatchObject({ types: 'public_channel' });
  });

  const signed = (body: string, secret = CLIENT.signingSecret, at = Math.floor(Date.now() / 1000)) => ({
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': String(at),
      'x-slack-signature': `v0=${createHmac('sha256', secret).update(`v0:${at}:${body}`).digest('hex')}`,
    },
    query: {},
    body: JSON.parse(body) as unknown,
    rawBody: body,
  });
  const event = JSON.stringify({
    type: 'event_callback',
    team_id: 'T01',
    event_id: 'Ev01',
    event_time: 1700000500,
    event: { type: 'app_mention', user: 'U01', text: '<@U0BOT> deploy', ts: '1700000500.000500', channel: 'C01' },
  });

  it('takes a signed Events API delivery of the chosen type, one run per event_id', async () => {
    const items = await runAppTrigger(slack, 'newEvent', {
      ...call({ eventType: 'app_mention' }),
      webhook: signed(event),
    });
    expect(items).toEqual([
      { id: 'Ev01', data: expect.objectContaining({ type: 'app_mention', text: '<@U0BOT> deploy', team_id: 'T01' }) },
    ]);
    expect(
      await runAppTrigger(slack, 'newEvent', { ...call({ eventType: 'reaction_added' }), webhook: signed(event) }),
    ).toEqual([]);
  });

  it('answers Slack’s url_verification challenge', async () => {
    const challenge = JSON.stringify({ type: 'url_verification', token: 'legacy', challenge: 'c-3eZbrw1aBm' });
    const answer = await runAppTrigger(slack, 'newEvent', { ...call(), webhook: signed(challenge) }).catch(
      (e: unknown) => e,
    );
    expect((answer as WebhookReplyRequested).reply).toMatchObject({ status: 200, body: 'c-3eZbrw1aBm' });
  });

  it('refuses a delivery signed with another secret, changed since, or older than five minutes', async () => {
    const old = Math.floor(Date.now() / 1000) - 6 * 60;
    for (const forged of [
      signed(event, 'another-secret'),
      { ...signed(event), rawBody: event.replace('deploy', 'destroy') },
      signed(event, CLIENT.signingSecret, old),
    ]) {
      await expect(runAppTrigger(slack, 'newEvent', { ...call(), webhook: forged })).rejects.toBeInstanceOf(
        WebhookRefusedError,
      );
    }
  });
});

describe('slack: dynamic data and fields', () => {
  it('lists channels and members across cursor pages', async () => {
    expect((await loadAppDynamicData(slack, 'listChannels', call())).map((o) => o.value)).toEqual(
      CHANNELS.map((c) => c.id),
    );
    expect(await loadAppDynamicData(slack, 'listUsers', call())).toEqual([
      { name: 'Ann Smith (@ann)', value: 'U01' },
      { name: '@bob', value: 'U02' },
    ]);
  });

  it('adds the bot’s name and icon when the message is sent as the bot', async () => {
    expect(await loadAppDynamicFields(slack, 'listFieldsAfterSendAsBot', call({ sendAsBot: false }))).toEqual([]);
    const fields = await loadAppDynamicFields(slack, 'listFieldsAfterSendAsBot', call({ sendAsBot: true }));
    expect(fields.map((field) => field.key)).toEqual(['botName', 'botIcon']);
  });
});

describe('slack: compatibility', () => {
  it('keeps Automatisch’s keys', () => {
    const { manifest } = slack;
    expect(manifest.key).toBe('slack');
    const steps = Object.fromEntries(manifest.actions.map((a) => [a.key, a.arguments.map((arg) => arg.key)]));
    expect(steps).toEqual({
      findMessage: ['query', 'sortBy', 'sortDirection'],
      findUserByEmail: ['email'],
      sendMessageToChannel: ['channel', 'message', 'sendAsBot'],
      sendDirectMessage: ['toUsername', 'message', 'sendAsBot'],
    });
    expect(manifest.actions.filter((a) => a.dynamicFieldsKey).map((a) => a.dynamicFieldsKey)).toEqual([
      'listFieldsAfterSendAsBot',
      'listFieldsAfterSendAsBot',
    ]);
    expect(Object.keys(slack.dynamicData)).toEqual(['listChannels', 'listUsers']);
  });
});
