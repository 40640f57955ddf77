import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCatalog } from '../../adapters/apps/app-catalog.js';
import {
  loadAppDynamicData,
  loadAppDynamicFields,
  runAppAction,
  runAppTrigger,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { discord } from '../../adapters/apps/discord/index.js';
import { createMemoryStore } from '../../adapters/apps/sdk/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';

const TOKEN = 'bot-token-1';
const GUILD = '200000000000000001';
const API = '/api/v10';

/** Snowflakes: later ones are greater. 250 messages, the newest last here. */
const MESSAGES = Array.from({ length: 250 }, (_, i) => ({
  id: String(300000000000000000n + BigInt(i)),
  content: `message ${i}`,
}));
const CHANNELS = [
  { id: '400000000000000003', name: 'general', type: 0, position: 2 },
  { id: '400000000000000001', name: 'announcements', type: 5, position: 1 },
  { id: '400000000000000002', name: 'Lounge', type: 2, position: 3 },
  { id: '400000000000000004', name: 'Town hall', type: 13, position: 4 },
  { id: '400000000000000005', name: 'Info', type: 4, position: 0 },
];
const EVENTS = [
  { id: '500000000000000001', name: 'Launch party' },
  { id: '500000000000000009', name: 'Retro' },
];

/** Discord's error body: a message and a numeric code. */
const discordError = (status: number, code: number, message: string) => reply(status, { message, code });

let vendor: FakeVendor;
let guilds = [{ id: GUILD, name: 'Builders' }];
beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) => req.headers.authorization === `Bot ${TOKEN}`,
    unauthorized: discordError(401, 0, '401: Unauthorized'),
    rateLimited: reply(
      429,
      { message: 'You are being rate limited.', retry_after: 1, global: false },
      { 'retry-after': '1' },
    ),
    routes: {
      [`GET ${API}/users/@me`]: () => ({ id: '1', username: 'Conveyor Bot', bot: true }),
      [`GET ${API}/users/@me/guilds`]: () => guilds,
      [`GET ${API}/guilds/:guild`]: (req) =>
        req.params.guild === GUILD ? { id: GUILD, name: 'Builders' } : discordError(404, 10004, 'Unknown Guild'),
      [`GET ${API}/guilds/:guild/channels`]: () => CHANNELS,
      [`POST ${API}/channels/:channel/messages`]: (req) =>
        req.params.channel === CHANNELS[0]?.id
          ? {
              id: '600000000000000001',
              channel_id: req.params.channel,
              content: (req.body as { content: string }).content,
            }
          : discordError(403, 50013, 'Missing Permissions'),
      // Newest first, at most `limit`, those before `before` when given: as Discord pages back.
      [`GET ${API}/channels/:channel/messages`]: (req) => {
        const before = req.query.before ? BigInt(req.query.before) : null;
        const older = MESSAGES.filter((m) => before === null || BigInt(m.id) < before).reverse();
        return older.slice(0, Number(req.query.limit ?? 50));
      },
      [`GET ${API}/guilds/:guild/scheduled-events`]: () => EVENTS,
      [`POST ${API}/guilds/:guild/scheduled-events`]: (req) =>
        reply(200, { id: '500000000000000010', ...(req.body as object) }),
      [`PATCH ${API}/guilds/:guild/scheduled-events/:event`]: (req) => ({
        id: req.params.event,
        ...(req.body as object),
      }),
    },
  });
});
afterAll(() => vendor.close());

const auth = { botToken: TOKEN, guildId: GUILD };
const call = (parameters: Record<string, unknown> = {}) => ({ auth, baseUrl: `${vendor.url}${API}`, parameters });

describe('discord: connection', () => {
  it('verifies the bot token and the server, named bot @ server', async () => {
    expect(await verifyAppAuth(discord, auth, { baseUrl: `${vendor.url}${API}` })).toMatchObject({
      ok: true,
      screenName: 'Conveyor Bot @ Builders',
    });
    expect(vendor.calls(`GET ${API}/users/@me`).at(-1)?.headers.authorization).toBe(`Bot ${TOKEN}`);
  });

  it('takes the only server the bot is in when none is named, and asks for one among several', async () => {
    const check = await verifyAppAuth(discord, { botToken: TOKEN }, { baseUrl: `${vendor.url}${API}` });
    expect(check).toMatchObject({ ok: true, screenName: 'Conveyor Bot @ Builders', credentials: { guildId: GUILD } });
    guilds = [...guilds, { id: '200000000000000002', name: 'Other' }];
    expect(await verifyAppAuth(discord, { botToken: TOKEN }, { baseUrl: `${vendor.url}${API}` })).toEqual({
      ok: false,
      reason: 'The bot is in several servers: enter the Server ID of the one to use.',
    });
    guilds = guilds.slice(0, 1);
  });

  it('refuses a wrong token or a server the bot is not in, with Discord’s message', async () => {
    const wrong = await verifyAppAuth(
      discord,
      { botToken: 'nope-token', guildId: GUILD },
      { baseUrl: `${vendor.url}${API}` },
    );
    expect(wrong).toEqual({ ok: false, reason: expect.stringContaining('answered 401: 401: Unauthorized') });
    expect(JSON.stringify(wrong)).not.toContain('nope-token');
    const elsewhere = await verifyAppAuth(
      discord,
      { botToken: TOKEN, guildId: '200000000000000009' },
      { baseUrl: `${vendor.url}${API}` },
    );
    expect(elsewhere).toEqual({ ok: false, reason: expect.stringContaining('answered 404: Unknown Guild') });
  });
});

describe('discord: actions', () => {
  it('sends a message with a nonce made of the step’s idempotency key, enforced', async () => {
    const output = await runAppAction(
      discord,
      'sendMessageToChannel',
      call({ channel: CHANNELS[0]?.id, message: 'Hi **all**' }),
    );
    expect(output).toMatchObject({ id: '600000000000000001', content: 'Hi **all**' });
    const sent = vendor.calls(`POST ${API}/channels/:channel/messages`).at(-1);
    expect(sent?.body).toEqual({
      content: 'Hi **all**',
      nonce: expect.stringMatching(/^[\w-]{25}$/),
      enforce_nonce: true,
    });
    await runAppAction(discord, 'sendMessageToChannel', call({ channel: CHANNELS[0]?.id, message: 'again' }));
    const again = vendor.calls(`POST ${API}/channels/:channel/messages`).at(-1);
    expect(again?.body).toMatchObject({ nonce: (sent?.body as { nonce?: string } | undefined)?.nonce });
  });

  it('surfaces Discord’s message when it refuses', async () => {
    await expect(
      runAppAction(discord, 'sendMessageToChannel', call({ channel: CHANNELS[2]?.id, message: 'x' })),
    ).rejects.toThrow('answered 403: Missing Permissions');
  });

  it('creates an external event with its location and no channel, and a voice one in its channel', async () => {
    const external = await runAppAction(
      discord,
      'createScheduledEvent',
      call({
        entityType: 3,
        name: 'Meetup',
        location: 'Café Kranz',
        scheduledStartTime: '2025-06-01T18:00:00Z',
        scheduledEndTime: '2025-06-01T20:00:00Z',
      }),
    );
    expect(external).toMatchObject({ id: '500000000000000010', name: 'Meetup' });
    expect(vendor.calls(`POST ${API}/guilds/:guild/scheduled-events`).at(-1)).toMatchObject({
      path: `${API}/guilds/${GUILD}/scheduled-events`,
      body: {
        name: 'Meetup',
        entity_type: 3,
        privacy_level: 2,
        scheduled_start_time: '2025-06-01T18:00:00Z',
        scheduled_end_time: '2025-06-01T20:00:00Z',
        channel_id: null,
        entity_metadata: { location: 'Café Kranz' },
      },
    });
    await runAppAction(
      discord,
      'createScheduledEvent',
      call({
        entityType: '2',
        name: 'Standup',
        channel_id: CHANNELS[2]?.id,
        scheduledStartTime: '2025-06-02T09:00:00Z',
      }),
    );
    expect(vendor.calls(`POST ${API}/guilds/:guild/scheduled-events`).at(-1)?.body).toEqual({
      name: 'Standup',
      entity_type: 2,
      privacy_level: 2,
      scheduled_start_time: '2025-06-02T09:00:00Z',
      channel_id: CHANNELS[2]?.id,
      entity_metadata: null,
    });
  });

  it('refuses a voice event without its channel', async () => {
    await expect(
      runAppAction(
        discord,
        'createScheduledEvent',
        call({ entityType: 2, name: 'Standup', scheduledStartTime: '2025-06-02T09:00:00Z' }),
      ),
    ).rejects.toMatchObject({ fields: { channel_id: ['is required.'] } });
  });

  it('refuses an external event without its end, and a start that is not a date', async () => {
    await expect(
      runAppAction(
        discord,
        'createScheduledEvent',
        call({ entityType: 3, name: 'Meetup', location: 'Park', scheduledStartTime: 'tomorrow' }),
      ),
    ).rejects.toMatchObject({
      fields: { scheduledStartTime: ['must be an ISO 8601 date and time.'], scheduledEndTime: ['is required.'] },
    });
  });

  it('updates an event: only what is given, its status included', async () => {
    const output = await runAppAction(
      discord,
      'updateScheduledEvent',
      call({ scheduledEventId: EVENTS[0]?.id, status: 4, entityType: 2, channel_id: CHANNELS[2]?.id }),
    );
    expect(output).toMatchObject({ id: EVENTS[0]?.id, status: 4 });
    expect(vendor.calls(`PATCH ${API}/guilds/:guild/scheduled-events/:event`).at(-1)?.body).toEqual({
      status: 4,
      entity_type: 2,
      channel_id: CHANNELS[2]?.id,
      entity_metadata: null,
    });
  });

  it('turns Discord’s 429 into a retryable failure', async () => {
    const catalog = createAppCatalog({
      apps: [discord],
      allowPrivateNetworks: true,
      logger: new CapturingLogger(),
      appAddresses: { APP_BASE_URL_DISCORD: `${vendor.url}${API}` },
    });
    vendor.rateLimit(1);
    const outcome = await createStepRunner(catalog, [discord]).runAction({
      appKey: 'discord',
      key: 'sendMessageToChannel',
      parameters: { channel: CHANNELS[0]?.id, message: 'x' },
      connection: { credentials: auth, oauth: null },
      execution: null,
    } as never);
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
    await catalog.close();
  });
});

describe('discord: triggers', () => {
  it('polls a channel’s latest messages, newest first, and reads back to the last one seen', async () => {
    const store = createMemoryStore();
    const first = await runAppTrigger(discord, 'newMessage', { ...call({ channel: CHANNELS[0]?.id }), store });
    expect(first).toHaveLength(100);
    expect(first[0]?.id).toBe(MESSAGES[249]?.id);
    expect(first.at(-1)?.id).toBe(MESSAGES[150]?.id);
    // The last poll saw message 20: everything after it comes, over three pages.
    await store.set(`discord:lastMessage:${CHANNELS[0]?.id}`, MESSAGES[20]?.id);
    const later = await runAppTrigger(discord, 'newMessage', { ...call({ channel: CHANNELS[0]?.id }), store });
    expect(later.map((item) => item.id)).toEqual(
      MESSAGES.slice(21)
        .reverse()
        .map((m) => m.id),
    );
    expect(await store.get(`discord:lastMessage:${CHANNELS[0]?.id}`)).toBe(MESSAGES[249]?.id);
  });

  it('polls the server’s scheduled events, newest first', async () => {
    const items = await runAppTrigger(discord, 'newScheduledEvent', call());
    expect(items.map((item) => item.id)).toEqual([EVENTS[1]?.id, EVENTS[0]?.id]);
  });
});

describe('discord: dynamic data and fields', () => {
  it('lists text and announcement channels, voice and stage ones for an event, and the events', async () => {
    expect(await loadAppDynamicData(discord, 'listChannels', call())).toEqual([
      { name: 'announcements', value: '400000000000000001' },
      { name: 'general', value: '400000000000000003' },
    ]);
    expect((await loadAppDynamicData(discord, 'listChannels', call({ entityType: 2 }))).map((o) => o.name)).toEqual([
      'Lounge',
      'Town hall',
    ]);
    expect(await loadAppDynamicData(discord, 'listScheduledEvents', call())).toEqual([
      { name: 'Launch party', value: EVENTS[0]?.id },
      { name: 'Retro', value: EVENTS[1]?.id },
    ]);
  });

  it('adds a location and times to an external event, a channel to the others', async () => {
    const external = await loadAppDynamicFields(discord, 'listExternalScheduledEventFields', call({ entityType: 3 }));
    expect(external.map((field) => [field.key, field.required])).toEqual([
      ['location', true],
      ['scheduledStartTime', true],
      ['scheduledEndTime', true],
    ]);
    const voice = await loadAppDynamicFields(discord, 'listScheduledEventFieldsForUpdate', call({ entityType: 2 }));
    expect(voice.map((field) => [field.key, field.required])).toEqual([
      ['channel_id', true],
      ['location', false],
      ['scheduledStartTime', false],
      ['scheduledEndTime', false],
    ]);
    expect(voice[0]?.dynamicData).toEqual({ key: 'listChannels', dependsOn: ['entityType'] });
  });
});

describe('discord: compatibility', () => {
  it('keeps Automatisch’s keys', () => {
    const { manifest } = discord;
    expect(manifest.key).toBe('discord');
    expect(manifest.auth.fields.map((field) => field.key)).toContain('botToken');
    const steps = Object.fromEntries(manifest.actions.map((a) => [a.key, a.arguments.map((arg) => arg.key)]));
    expect(steps).toMatchObject({
      sendMessageToChannel: ['channel', 'message'],
      createScheduledEvent: ['entityType', 'name', 'description', 'image'],
      updateScheduledEvent: ['scheduledEventId', 'status', 'entityType', 'name', 'description', 'image'],
    });
    expect(manifest.actions.map((a) => a.dynamicFieldsKey)).toEqual([
      undefined,
      'listExternalScheduledEventFields',
      'listScheduledEventFieldsForUpdate',
    ]);
    expect(Object.keys(discord.dynamicData)).toEqual(['listChannels', 'listScheduledEvents']);
  });
});
