import { dropdown, dynamicDropdown, restAction, text } from '../sdk/index.js';

export const createPlaylist = restAction({
  key: 'createPlaylist',
  name: 'Create playlist',
  description: "Creates a playlist on the account's channel.",
  arguments: {
    title: text({ label: 'Title', required: true, acceptsVariables: true }),
    description: text({ label: 'Description', acceptsVariables: true }),
    privacyStatus: dropdown({
      label: 'Privacy',
      default: 'private',
      options: [
        { label: 'Private', value: 'private' },
        { label: 'Unlisted', value: 'unlisted' },
        { label: 'Public', value: 'public' },
      ],
    }),
  },
  request: (p) => ({
    method: 'POST',
    path: '/youtube/v3/playlists',
    query: { part: 'snippet,status' },
    body: { snippet: { title: p.title, description: p.description ?? '' }, status: { privacyStatus: p.privacyStatus } },
  }),
});

export const addVideoToPlaylist = restAction({
  key: 'addVideoToPlaylist',
  name: 'Add video to playlist',
  description: 'Adds a video at the end of one of your playlists.',
  arguments: {
    playlistId: dynamicDropdown({
      label: 'Playlist',
      required: true,
      acceptsVariables: true,
      dynamicData: 'listPlaylists',
    }),
    videoId: text({
      label: 'Video ID',
      required: true,
      description: 'For www.youtube.com/watch?v=dQw4w9WgXcQ, dQw4w9WgXcQ.',
      acceptsVariables: true,
    }),
  },
  request: (p) => ({
    method: 'POST',
    path: '/youtube/v3/playlistItems',
    query: { part: 'snippet' },
    body: { snippet: { playlistId: p.playlistId, resourceId: { kind: 'youtube#video', videoId: p.videoId } } },
  }),
});
