import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppDynamicData, registerAppHook, runAppAction, runAppTrigger } from '../../adapters/apps/app-harness.js';
import { microsoftTeams } from '../../adapters/apps/microsoft-teams/index.js';
import { reply } from '../support/fake-vendor.js';
import {
  describeGraphNotifications,
  describeMicrosoftConnection,
  type FakeGraph,
  graphError,
  graphPage,
  ME,
  runRateLimited,
  startFakeGraph,
  WEBHOOK_URL,
} from './support/microsoft-common-fake.js';

const TEAM = 'fbe2bf47-16c8-47cf-b4a5-4b9b187c508b';
const CHANNEL = '19:4a95f7d8db4c4e7fae857bcebe0623e6@thread.tacv2';
const CHAT = '19:8ea0e38b-efb3-4757-924a-5f94061cf8c2_97f62344-57dc-409c-88ad-c4af14158ff5@unq.gbl.spaces';
const CHANNEL_PATH = `/teams/${TEAM}/channels/${encodeURIComponent(CHANNEL)}/messages`;

/** Graph's channel page is in no promised order: the trigger orders it. */
const CHANNEL_MESSAGES = [
  { id: '1616965872395', messageType: 'message', createdDateTime: '2024-03-28T21:11:12.395Z', body: { content: 'b' } },
  { id: '1616963377068', messageType: 'systemEventMessage', createdDateTime: '2024-03-28T20:29:37.068Z' },
  { id: '1616989510408', messageType: 'message', createdDateTime: '2024-03-29T03:45:10.408Z', body: { content: 'c' } },
  { id: '1616883610266', messageType: 'message', createdDateTime: '2024-03-27T22:20:10.266Z', body: { content: 'a' } },
];

const CHATS = Array.from({ length: 7 }, (_, i) => ({
  id: `19:chat-${i}@thread.v2`,
  topic: i % 2 === 0 ? `Project ${i}` : null,
  chatType: i % 2 === 0 ? 'group' : 'oneOnOne',
  members: [
    { displayName: 'Megan Bowen', userId: ME.id },
    { displayName: `Colleague ${i}`, userId: `u${i}` },
  ],
}));

let graph: FakeGraph;

beforeAll(async () => {
  graph = await startFakeGraph({
    'GET /teams/:team/channels/:channel/messages': (req) =>
      req.query.$top === '50' && Object.keys(req.query).length === 1
        ? { value: CHANNEL_MESSAGES }
        : graphError(400, 'BadRequest', 'Query option is not supported.'),
    'GET /chats/:chat/messages': (req) =>
      req.query.$orderby === 'createdDateTime desc'
        ? {
            value: [
              { id: 'c2', messageType: 'message', createdDateTime: '2024-05-02T10:00:00Z' },
              { id: 'c1', messageType: 'message', createdDateTime: '2024-05-01T10:00:00Z' },
            ],
          }
        : graphError(400, 'BadRequest', 'Expected $orderby.'),
    'GET /teams/:team/channels/:channel/messages/:id': (req) =>
      req.params.id === 'gone'
        ? graphError(404, 'NotFound', 'Message not found.')
        : {
            id: req.params.id,
            messageType: req.params.id === 'event' ? 'systemEventMessage' : 'message',
            channelIdentity: { teamId: req.params.team, channelId: req.params.channel },
          },
    'GET /chats/:chat/messages/:id': (req) => ({ id: req.params.id, messageType: 'message', chatId: req.params.chat }),
    'POST /teams/:team/channels/:channel/messages': (req) =>
      req.params.channel === 'archived'
        ? graphError(403, 'Forbidden', 'Cannot post a message in an archived channel.')
        : reply(201, {
            id: '1717000000000',
            webUrl: 'https://teams.microsoft.com/l/message/x',
            ...(req.body as object),
          }),
    'POST /teams/:team/channels/:channel/messages/:id/replies': (req) =>
      reply(201, { id: '1717000000001', replyToId: req.params.id, ...(req.body as object) }),
    'POST /chats/:chat/messages': (req) =>
      reply(201, { id: '1717000000002', chatId: req.params.chat, ...(req.body as object) }),
    'POST /teams/:team/channels': (req) =>
      (req.body as { displayName: string }).displayName === 'General'
        ? graphError(400, 'BadRequest', 'Channel name already existed, please use other name.')
        : reply(201, { id: '19:new@thread.tacv2', ...(req.body as object) }),
    'GET /me/joinedTeams': (req) =>
      graphPage(
        req,
        [
          { id: TEAM, displayName: 'Contoso' },
          { id: 't2', displayName: 'Mark 8 Project' },
          { id: 't3', displayName: 'Retail' },
        ],
        2,
      ),
    'GET /teams/:team/channels': (req) => ({
      value: [
        { id: CHANNEL, displayName: 'General' },
        { id: '19:b@thread.tacv2', displayName: `Sales of ${req.params.team}` },
      ],
    }),
    'GET /me/chats': (req) =>
      req.query.$expand === 'members' ? graphPage(req, CHATS, 3) : graphError(400, 'BadRequest', 'Expected $expand.'),
  });
});
afterAll(() => graph.close());

describeMicrosoftConnection(() => ({
  app: microsoftTeams,
  graph,
  scopes: [
    'Team.ReadBasic.All',
    'Channel.ReadBasic.All',
    'Channel.Create',
    'ChannelMessage.Read.All',
    'ChannelMessage.Send',
    'Chat.ReadWrite',
  ],
  refreshedBy: {
    kind: 'trigger',
    key: 'newChatMessage',
    parameters: { chatId: CHAT },
    route: 'GET /chats/:chat/messages',
  },
}));

describeGraphNotifications('newChannelMessageInstant', () => ({
  app: microsoftTeams,
  graph,
  parameters: { teamId: TEAM, channelId: CHANNEL },
  resource: `/teams/${TEAM}/channels/${CHANNEL}/messages`,
  maxMinutes: 60,
  entryId: '1717000000009',
  entryRoute: 'GET /teams/:team/channels/:channel/messages/:id',
  entry: { id: '1717000000009', messageType: 'message', channelIdentity: { teamId: TEAM, channelId: CHANNEL } },
}));

describe('microsoft-teams: triggers', () => {
  it("newChannelMessage: users' messages of the channel, newest first, by id", async () => {
    const items = await runAppTrigger(
      microsoftTeams,
      'newChannelMessage',
      graph.call({ teamId: TEAM, channelId: CHANNEL }),
    );
    expect(items.map((item) => item.id)).toEqual(['1616989510408', '1616965872395', '1616883610266']);
    expect(graph.vendor.calls('GET /teams/:team/channels/:channel/messages').at(-1)?.path).toBe(CHANNEL_PATH);
  });

  it('newChatMessage: the newest messages of the chat', async () => {
    const items = await runAppTrigger(microsoftTeams, 'newChatMessage', graph.call({ chatId: CHAT }));
    expect(items.map((item) => item.id)).toEqual(['c2', 'c1']);
  });

  it("newChatMessageInstant subscribes to the chat's messages and reads each one a notification names", async () => {
    const hook = (await registerAppHook(microsoftTeams, 'newChatMessageInstant', {
      ...graph.call({ chatId: CHAT }),
      webhookUrl: WEBHOOK_URL,
    })) as { id: string; clientState: string };
    expect(graph.vendor.calls('POST /subscriptions').at(-1)?.body).toMatchObject({
      resource: `/chats/${CHAT}/messages`,
    });
    const value = [
      { subscriptionId: hook.id, clientState: hook.clientState, changeType: 'created', resourceData: { id: 'm1' } },
    ];
    const items = await runAppTrigger(microsoftTeams, 'newChatMessageInstant', {
      ...graph.call({ chatId: CHAT }),
      hook,
      webhook: { method: 'POST', headers: {}, query: {}, body: { value }, rawBody: JSON.stringify({ value }) },
    });
    expect(items).toEqual([{ id: 'm1', data: { id: 'm1', messageType: 'message', chatId: CHAT } }]);
  });

  it('newChannelMessageInstant starts no run for Teams system events', async () => {
    const hook = (await registerAppHook(microsoftTeams, 'newChannelMessageInstant', {
      ...graph.call({ teamId: TEAM, channelId: CHANNEL }),
      webhookUrl: WEBHOOK_URL,
    })) as { id: string; clientState: string };
    const value = [
      { subscriptionId: hook.id, clientState: hook.clientState, changeType: 'created', resourceData: { id: 'event' } },
    ];
    const items = await runAppTrigger(microsoftTeams, 'newChannelMessageInstant', {
      ...graph.call({ teamId: TEAM, channelId: CHANNEL }),
      hook,
      webhook: { method: 'POST', headers: {}, query: {}, body: { value }, rawBody: JSON.stringify({ value }) },
    });
    expect(items).toEqual([]);
  });

  it('refuses to subscribe with an id that would name another resource', async () => {
    await expect(
      registerAppHook(microsoftTeams, 'newChatMessageInstant', {
        ...graph.call({ chatId: '19:x/../../users' }),
        webhookUrl: WEBHOOK_URL,
      }),
    ).rejects.toThrow('Not a Teams id');
  });
});

describe('microsoft-teams: actions', () => {
  it('sendChannelMessage posts the message with its subject', async () => {
    const output = await runAppAction(
      microsoftTeams,
      'sendChannelMessage',
      graph.call({
        teamId: TEAM,
        channelId: CHANNEL,
        subject: 'Release',
        content: '<b>Shipped</b>',
        contentType: 'html',
      }),
    );
    expect(output).toMatchObject({
      id: '1717000000000',
      subject: 'Release',
      body: { contentType: 'html', content: '<b>Shipped</b>' },
    });
    expect(graph.vendor.calls('POST /teams/:team/channels/:channel/messages').at(-1)?.path).toBe(CHANNEL_PATH);
  });

  it("sendChannelMessage fails with Graph's message in an archived channel", async () => {
    await expect(
      runAppAction(
        microsoftTeams,
        'sendChannelMessage',
        graph.call({ teamId: TEAM, channelId: 'archived', content: 'x' }),
      ),
    ).rejects.toThrow('Cannot post a message in an archived channel.');
  });

  it('replyToChannelMessage replies in the thread', async () => {
    const output = await runAppAction(
      microsoftTeams,
      'replyToChannelMessage',
      graph.call({ teamId: TEAM, channelId: CHANNEL, messageId: '1616965872395', content: 'Thanks' }),
    );
    expect(output).toEqual({
      id: '1717000000001',
      replyToId: '1616965872395',
      body: { contentType: 'text', content: 'Thanks' },
    });
  });

  it('sendChatMessage posts in the chat', async () => {
    const output = await runAppAction(microsoftTeams, 'sendChatMessage', graph.call({ chatId: CHAT, content: 'Hi' }));
    expect(output).toEqual({ id: '1717000000002', chatId: CHAT, body: { contentType: 'text', content: 'Hi' } });
  });

  it('createChannel makes a standard channel, and reports a taken name', async () => {
    expect(
      await runAppAction(
        microsoftTeams,
        'createChannel',
        graph.call({ teamId: TEAM, displayName: 'Launch', description: 'Q3' }),
      ),
    ).toEqual({ id: '19:new@thread.tacv2', displayName: 'Launch', description: 'Q3', membershipType: 'standard' });
    await expect(
      runAppAction(microsoftTeams, 'createChannel', graph.call({ teamId: TEAM, displayName: 'General' })),
    ).rejects.toThrow('Channel name already existed, please use other name.');
  });

  it("turns Graph's 429 into a retryable failure after its Retry-After", async () => {
    const outcome = await runRateLimited(microsoftTeams, graph, 'sendChatMessage', { chatId: CHAT, content: 'x' });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 7000 } });
  });
});

describe('microsoft-teams: dynamic data', () => {
  it('listTeams: every page of joined teams', async () => {
    expect(await loadAppDynamicData(microsoftTeams, 'listTeams', graph.call())).toEqual([
      { name: 'Contoso', value: TEAM },
      { name: 'Mark 8 Project', value: 't2' },
      { name: 'Retail', value: 't3' },
    ]);
  });

  it("listChannels: the chosen team's channels, none before a team is chosen", async () => {
    expect(await loadAppDynamicData(microsoftTeams, 'listChannels', graph.call({ teamId: 't2' }))).toEqual([
      { name: 'General', value: CHANNEL },
      { name: 'Sales of t2', value: '19:b@thread.tacv2' },
    ]);
    expect(await loadAppDynamicData(microsoftTeams, 'listChannels', graph.call())).toEqual([]);
  });

  it('listChats: every page, named by topic or by members', async () => {
    const options = await loadAppDynamicData(microsoftTeams, 'listChats', graph.call());
    expect(options).toHaveLength(7);
    expect(options.slice(0, 2)).toEqual([
      { name: 'Project 0', value: '19:chat-0@thread.v2' },
      { name: 'Colleague 1', value: '19:chat-1@thread.v2' },
    ]);
  });
});
