import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCatalog } from '../../adapters/apps/app-catalog.js';
import { loadAppDynamicData, runAppAction, runAppTrigger, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { mattermost } from '../../adapters/apps/mattermost/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';

const TOKEN = 'mm-token-1';
const API = '/api/v4';
const ME = { id: 'me000000000000000000000001', username: 'conveyor-bot' };
const USERS = Array.from({ length: 450 }, (_, i) => ({
  id: `user${String(i).padStart(22, '0')}`,
  username: `user${i}`,
  first_name: i % 2 ? `First${i}` : '',
  last_name: i % 2 ? 'Last' : '',
}));
const TEAM_CHANNELS = Array.from({ length: 230 }, (_, i) => ({
  id: `chan${String(i).padStart(22, '0')}`,
  name: `channel-${i}`,
  display_name: `Channel ${i}`,
  type: 'O',
  create_at: 1_700_000_000_000 + ((i * 7919) % 230) * 1000,
}));

/** Mattermost's error body: an id, the message, details and the status. */
const mattermostError = (status: number, id: string, message: string) =>
  reply(status, { id, message, detailed_error: '', request_id: 'req1', status_code: status });

const page = <T>(items: readonly T[], query: Record<string, string>) => {
  const perPage = Number(query.per_page ?? 60);
  const number = Number(query.page ?? 0);
  return items.slice(number * perPage, (number + 1) * perPage);
};

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) =>
      req.headers.authorization === `Bearer ${TOKEN}` && req.headers['x-requested-with'] === 'XMLHttpRequest',
    unauthorized: mattermostError(
      401,
      'api.context.session_expired.app_error',
      'Invalid or expired session, please login again.',
    ),
    rateLimited: reply(429, 'limit exceeded', { 'retry-after': '1', 'x-ratelimit-remaining': '0' }),
    routes: {
      [`GET ${API}/users/me`]: () => ME,
      [`GET ${API}/users/me/channels`]: () => [
        { id: 'c1', name: 'town-square', display_name: 'Town Square', type: 'O' },
        { id: 'c2', name: 'secret', display_name: 'Secret', type: 'P' },
        { id: 'c3', name: 'me__you', display_name: '', type: 'D' },
        { id: 'c4', name: 'abcdef', display_name: 'ann, bob, me', type: 'G' },
      ],
      [`GET ${API}/users/me/teams`]: () => [{ id: 't1', display_name: 'Builders', name: 'builders' }],
      [`GET ${API}/users`]: (req) => page(USERS, req.query),
      [`GET ${API}/teams/:team/channels`]: (req) => page(TEAM_CHANNELS, req.query),
      [`POST ${API}/posts`]: (req) => {
        const body = req.body as { channel_id: string; message: string };
        if (body.channel_id === 'archived') {
          return mattermostError(
            403,
            'api.context.permissions.app_error',
            'You do not have the appropriate permissions.',
          );
        }
        return reply(201, { id: 'p1', create_at: 1, user_id: ME.id, ...body });
      },
      [`POST ${API}/channels/direct`]: (req) => reply(201, { id: `dm-${(req.body as string[]).join('-')}`, type: 'D' }),
      [`POST ${API}/channels`]: (req) => reply(201, { id: 'new-channel', ...(req.body as object) }),
      [`GET ${API}/channels/:channel/posts`]: () => ({
        order: ['p3', 'p2', 'p1'],
        posts: {
          p1: { id: 'p1', message: 'first', type: '', create_at: 100 },
          p2: { id: 'p2', message: 'ann joined the channel.', type: 'system_join_channel', create_at: 200 },
          p3: { id: 'p3', message: 'third', type: '', create_at: 300, root_id: 'p1' },
        },
        next_post_id: '',
        prev_post_id: '',
      }),
    },
  });
});
afterAll(() => vendor.close());

const auth = () => ({ instanceUrl: `${vendor.url}/`, accessToken: TOKEN });
const call = (parameters: Record<string, unknown> = {}) => ({ auth: auth(), parameters });

describe('mattermost', () => {
  it('verifies the token against the connection’s own server, and names the account there', async () => {
    const check = await verifyAppAuth(mattermost, auth());
    expect(check).toMatchObject({ ok: true, screenName: `conveyor-bot @ ${new URL(vendor.url).host}` });
    const refused = await verifyAppAuth(mattermost, { ...auth(), accessToken: 'stale-token' });
    expect(refused).toEqual({
      ok: false,
      reason: expect.stringContaining('answered 401: Invalid or expired session, please login again.'),
    });
    expect(JSON.stringify(refused)).not.toContain('stale-token');
  });

  it('posts a message to a channel, and surfaces Mattermost’s refusal', async () => {
    expect(
      await runAppAction(mattermost, 'sendMessageToChannel', call({ channel: 'c1', message: 'Hello **team**' })),
    ).toMatchObject({
      id: 'p1',
      channel_id: 'c1',
    });
    expect(vendor.calls(`POST ${API}/posts`).at(-1)?.body).toEqual({ channel_id: 'c1', message: 'Hello **team**' });
    await expect(
      runAppAction(mattermost, 'sendMessageToChannel', call({ channel: 'archived', message: 'x' })),
    ).rejects.toThrow('answered 403: You do not have the appropriate permissions.');
  });

  it('sends a direct message through the direct channel of the account and the user', async () => {
    const output = await runAppAction(mattermost, 'sendDirectMessage', call({ user: USERS[3]?.id, message: 'Hi' }));
    expect(output).toMatchObject({ channel_id: `dm-${ME.id}-${USERS[3]?.id}`, message: 'Hi' });
    expect(vendor.calls(`POST ${API}/channels/direct`).at(-1)?.body).toEqual([ME.id, USERS[3]?.id]);
  });

  it('creates a channel in a team, public by default', async () => {
    const output = await runAppAction(
      mattermost,
      'createChannel',
      call({ team: 't1', displayName: 'Release 2.0', name: 'release-2-0', purpose: 'Ship it' }),
    );
    expect(output).toMatchObject({ id: 'new-channel' });
    expect(vendor.calls(`POST ${API}/channels`).at(-1)?.body).toEqual({
      team_id: 't1',
      name: 'release-2-0',
      display_name: 'Release 2.0',
      type: 'O',
      purpose: 'Ship it',
    });
    await expect(
      runAppAction(mattermost, 'createChannel', call({ team: 't1', displayName: 'X', name: 'Has Spaces' })),
    ).rejects.toMatchObject({ fields: { name: ['must be lowercase letters, digits, - and _ (64 at most).'] } });
  });

  it('turns a 429 into a retryable failure', async () => {
    const catalog = createAppCatalog({ apps: [mattermost], allowPrivateNetworks: true, logger: new CapturingLogger() });
    vendor.rateLimit(1);
    const outcome = await createStepRunner(catalog, [mattermost]).runAction({
      appKey: 'mattermost',
      key: 'sendMessageToChannel',
      parameters: { channel: 'c1', message: 'x' },
      connection: { credentials: auth(), oauth: null },
      execution: null,
    } as never);
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
    await catalog.close();
  });

  it('polls a channel’s latest posts, newest first, without system messages', async () => {
    const items = await runAppTrigger(mattermost, 'newMessage', call({ channel: 'c1' }));
    expect(items.map((item) => item.id)).toEqual(['p3', 'p1']);
    expect(vendor.calls(`GET ${API}/channels/:channel/posts`).at(-1)?.query).toEqual({ page: '0', per_page: '100' });
  });

  it('polls a team’s channels across pages, newest first', async () => {
    const items = await runAppTrigger(mattermost, 'newChannel', call({ team: 't1' }));
    expect(items).toHaveLength(230);
    const created = items.map((item) => (item.data as { create_at: number }).create_at);
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it('lists named channels, teams, and users across pages', async () => {
    expect(await loadAppDynamicData(mattermost, 'listChannels', call())).toEqual([
      { name: 'Town Square', value: 'c1' },
      { name: 'Secret', value: 'c2' },
      { name: 'ann, bob, me', value: 'c4' },
    ]);
    expect(await loadAppDynamicData(mattermost, 'listTeams', call())).toEqual([{ name: 'Builders', value: 't1' }]);
    const users = await loadAppDynamicData(mattermost, 'listUsers', call());
    expect(users).toHaveLength(450);
    expect(users.slice(0, 2)).toEqual([
      { name: '@user0', value: USERS[0]?.id },
      { name: 'First1 Last (@user1)', value: USERS[1]?.id },
    ]);
    expect(vendor.calls(`GET ${API}/users`).map((r) => r.query.page)).toEqual(['0', '1', '2']);
  });

  it('keeps Automatisch’s keys', () => {
    const { manifest } = mattermost;
    expect(manifest.key).toBe('mattermost');
    expect(manifest.auth.fields.map((field) => field.key)).toContain('instanceUrl');
    expect(manifest.actions.find((a) => a.key === 'sendMessageToChannel')?.arguments.map((a) => a.key)).toEqual([
      'channel',
      'message',
    ]);
    expect(Object.keys(mattermost.dynamicData)).toContain('listChannels');
  });
});
