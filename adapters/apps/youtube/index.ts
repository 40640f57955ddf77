import { byPageToken, GOOGLE_APIS, withGoogleRateLimits } from '../google-common/index.js';
import { type DraftContext, defineApp, paginate } from '../sdk/index.js';
import { addVideoToPlaylist, createPlaylist } from './actions.js';
import { youtubeAuth } from './auth.js';
import { icon } from './icon.js';
import { newVideoBySearch, newVideoInChannel } from './triggers.js';

const listPlaylists = async (ctx: DraftContext) => {
  const playlists = await paginate<{ id: string; snippet: { title: string } }>(
    ctx.http,
    { path: '/youtube/v3/playlists', query: { part: 'snippet', mine: true, maxResults: 50 } },
    byPageToken('items'),
  );
  return playlists.map((playlist) => ({ name: playlist.snippet.title, value: playlist.id }));
};

export const youtube = withGoogleRateLimits(
  defineApp({
    key: 'youtube',
    name: 'YouTube',
    description: 'Start flows from new videos of a channel or a search; create playlists and add videos to them.',
    icon,
    primaryColor: '#ff0000',
    categories: ['marketing'],
    version: 1,
    auth: youtubeAuth,
    triggers: [newVideoBySearch, newVideoInChannel],
    actions: [createPlaylist, addVideoToPlaylist],
    dynamicData: { listPlaylists },
    http: { baseUrl: GOOGLE_APIS.www, relatedApis: [GOOGLE_APIS.people] },
  }),
);
