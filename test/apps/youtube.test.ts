import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppDynamicData, runAppAction, runAppTrigger } from '../../adapters/apps/app-harness.js';
import { createMemoryStore } from '../../adapters/apps/sdk/index.js';
import { youtube } from '../../adapters/apps/youtube/index.js';
import {
  describeGoogleConnection,
  type FakeGoogle,
  googleError,
  startFakeGoogle,
} from './support/google-common-fake.js';

const YT = '/youtube/v3';
const at = (day: number) => new Date(Date.UTC(2024, 4, day)).toISOString();

const SEARCH_RESULTS = [3, 2, 1].map((n) => ({
  kind: 'youtube#searchResult',
  etag: `etag${n}`,
  id: { kind: 'youtube#video', videoId: `vid${n}` },
  snippet: { publishedAt: at(n), title: `Cooking ${n}`, channelId: 'UCchef' },
}));

/** The uploads playlist, not in publication order (a video published late is listed first here). */
const UPLOADS = [
  { id: 'pi2', snippet: { title: 'Second' }, contentDetails: { videoId: 'up2', videoPublishedAt: at(2) } },
  { id: 'pi3', snippet: { title: 'Third' }, contentDetails: { videoId: 'up3', videoPublishedAt: at(3) } },
  { id: 'pi1', snippet: { title: 'First' }, contentDetails: { videoId: 'up1', videoPublishedAt: at(1) } },
];

const PLAYLISTS = Array.from({ length: 60 }, (_, i) => ({
  kind: 'youtube#playlist',
  id: `PL${i}`,
  snippet: { title: `List ${i}` },
}));

let google: FakeGoogle;

beforeAll(async () => {
  google = await startFakeGoogle({
    [`GET ${YT}/search`]: (req) => ({
      kind: 'youtube#searchListResponse',
      items: SEARCH_RESULTS.filter(
        (item) => !req.query.publishedAfter || item.snippet.publishedAt > req.query.publishedAfter,
      ),
    }),
    [`GET ${YT}/channels`]: (req) => ({
      kind: 'youtube#channelListResponse',
      items:
        req.query.id === 'UCchef'
          ? [{ id: 'UCchef', contentDetails: { relatedPlaylists: { uploads: 'UUchef' } } }]
          : [],
    }),
    [`GET ${YT}/playlistItems`]: (req) =>
      req.query.playlistId === 'UUchef'
        ? { items: UPLOADS }
        : googleError(
            404,
            "The playlist identified with the request's <code>playlistId</code> parameter cannot be found.",
            'NOT_FOUND',
            'playlistNotFound',
          ),
    [`POST ${YT}/playlistItems`]: (req) => {
      const snippet = (req.body as { snippet: { playlistId: string } }).snippet;
      return PLAYLISTS.some((playlist) => playlist.id === snippet.playlistId)
        ? { kind: 'youtube#playlistItem', id: 'new-item', snippet }
        : googleError(404, 'Playlist not found.', 'NOT_FOUND', 'playlistNotFound');
    },
    [`GET ${YT}/playlists`]: (req) => {
      const start = Number(req.query.pageToken ?? 0);
      const next = start + 50 < PLAYLISTS.length ? String(start + 50) : undefined;
      return req.query.mine === 'true'
        ? { items: PLAYLISTS.slice(start, start + 50), ...(next && { nextPageToken: next }) }
        : googleError(400, 'No filter selected.', 'INVALID_ARGUMENT');
    },
    [`POST ${YT}/playlists`]: (req) => ({ kind: 'youtube#playlist', id: 'PLnew', ...(req.body as object) }),
  });
});
afterAll(() => google.close());

describe('youtube: keeps Automatisch keys', () => {
  it('app, client settings, triggers with their arguments', () => {
    const steps = (items: readonly { key: string; arguments: readonly { key: string }[] }[]) =>
      Object.fromEntries(items.map((step) => [step.key, step.arguments.map((argument) => argument.key)]));
    expect(youtube.key).toBe('youtube');
    expect(youtube.manifest.auth.clientFields.map((field) => field.key)).toEqual(['clientId', 'clientSecret']);
    expect(steps(youtube.manifest.triggers)).toEqual({ newVideoBySearch: ['query'], newVideoInChannel: ['channelId'] });
    // Automatisch's YouTube has no actions; these are ours.
    expect(steps(youtube.manifest.actions)).toEqual({
      createPlaylist: ['title', 'description', 'privacyStatus'],
      addVideoToPlaylist: ['playlistId', 'videoId'],
    });
  });
});

describeGoogleConnection(() => ({
  app: youtube,
  google,
  scopes: [
    'https://www.googleapis.com/auth/youtube',
    'https://www.googleapis.com/auth/youtube.readonly',
    'https://www.googleapis.com/auth/youtube.upload',
  ],
  refreshedBy: { kind: 'trigger', key: 'newVideoBySearch', parameters: { query: 'x' }, route: `GET ${YT}/search` },
}));

describe('youtube: triggers', () => {
  it('newVideoBySearch: newest videos first by video id, then only those published since, every 15 minutes', async () => {
    const store = createMemoryStore();
    const poll = () => runAppTrigger(youtube, 'newVideoBySearch', { ...google.call({ query: 'pasta' }), store });
    expect((await poll()).map((item) => item.id)).toEqual(['vid3', 'vid2', 'vid1']);
    expect(google.vendor.calls(`GET ${YT}/search`).at(-1)?.query).toEqual({
      part: 'snippet',
      q: 'pasta',
      maxResults: '50',
      order: 'date',
      type: 'video',
    });
    await poll();
    await poll();
    expect(google.vendor.calls(`GET ${YT}/search`).at(-1)?.query.publishedAfter).toBe(at(3));
    const trigger = youtube.triggers.find((entry) => entry.key === 'newVideoBySearch');
    expect(trigger?.schedule?.({ query: 'pasta' })).toEqual({ cron: '*/15 * * * *', timezone: 'UTC' });
  });

  it("newVideoInChannel: the channel's uploads, newest published first, by video id", async () => {
    const items = await runAppTrigger(youtube, 'newVideoInChannel', google.call({ channelId: 'UCchef' }));
    expect(items.map((item) => item.id)).toEqual(['up3', 'up2', 'up1']);
    expect(items[0]?.data).toEqual(UPLOADS[1]);
    expect(google.vendor.calls(`GET ${YT}/playlistItems`).at(-1)?.query).toEqual({
      part: 'snippet,contentDetails',
      playlistId: 'UUchef',
      maxResults: '50',
    });
    await expect(runAppTrigger(youtube, 'newVideoInChannel', google.call({ channelId: 'UCnobody' }))).rejects.toThrow(
      'YouTube has no channel UCnobody.',
    );
  });
});

describe('youtube: actions and dynamic data', () => {
  it('creates a playlist', async () => {
    const output = await runAppAction(
      youtube,
      'createPlaylist',
      google.call({ title: 'Best of', privacyStatus: 'unlisted' }),
    );
    expect(output).toMatchObject({ id: 'PLnew' });
    const sent = google.vendor.calls(`POST ${YT}/playlists`).at(-1);
    expect(sent?.query).toEqual({ part: 'snippet,status' });
    expect(sent?.body).toEqual({
      snippet: { title: 'Best of', description: '' },
      status: { privacyStatus: 'unlisted' },
    });
  });

  it("adds a video to a playlist, and fails with YouTube's message for an unknown one", async () => {
    expect(
      await runAppAction(youtube, 'addVideoToPlaylist', google.call({ playlistId: 'PL3', videoId: 'vid1' })),
    ).toEqual({
      kind: 'youtube#playlistItem',
      id: 'new-item',
      snippet: { playlistId: 'PL3', resourceId: { kind: 'youtube#video', videoId: 'vid1' } },
    });
    await expect(
      runAppAction(youtube, 'addVideoToPlaylist', google.call({ playlistId: 'PLx', videoId: 'vid1' })),
    ).rejects.toThrow(/answered 404: Playlist not found\./);
  });

  it("lists every page of the account's playlists", async () => {
    const playlists = await loadAppDynamicData(youtube, 'listPlaylists', google.call());
    expect(playlists).toHaveLength(60);
    expect(playlists[59]).toEqual({ name: 'List 59', value: 'PL59' });
  });
});
