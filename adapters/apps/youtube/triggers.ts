import { defineTrigger, pollingTrigger, text } from '../sdk/index.js';

const YOUTUBE = '/youtube/v3';

/**
 * A search costs 100 units of the project's 10,000 a day: polled every 15 minutes, as in
 * Automatisch, one flow spends about 9,600.
 */
const EVERY_15_MINUTES = { cron: '*/15 * * * *', timezone: 'UTC' };

export const newVideoBySearch = pollingTrigger({
  key: 'newVideoBySearch',
  name: 'New video by search',
  description: 'Triggers when a new video is uploaded that matches a specific search string.',
  arguments: {
    query: text({
      label: 'Query',
      required: true,
      description: 'Search for videos that match this query.',
      acceptsVariables: true,
    }),
  },
  request: (p) => ({
    path: `${YOUTUBE}/search`,
    query: { part: 'snippet', q: p.query, maxResults: 50, order: 'date', type: 'video' },
  }),
  items: 'items',
  id: (item) => item.id.videoId,
  since: { param: 'publishedAfter', value: (item) => item.snippet.publishedAt },
  schedule: () => EVERY_15_MINUTES,
});

interface PlaylistItem {
  readonly contentDetails: { readonly videoId: string; readonly videoPublishedAt?: string };
  readonly [field: string]: unknown;
}

/**
 * A channel's uploads are a playlist: reading it costs 2 units a poll where a search costs 100.
 * Newest first by publication, by video id.
 */
export const newVideoInChannel = defineTrigger({
  key: 'newVideoInChannel',
  name: 'New video in channel',
  description: 'Triggers when a new video is published to a specific YouTube channel.',
  type: 'polling',
  arguments: {
    channelId: text({
      label: 'Channel',
      required: true,
      description:
        'The id of the channel: for www.youtube.com/channel/UCbxb2fqe9oNgglAoYqsYOtQ, UCbxb2fqe9oNgglAoYqsYOtQ.',
      acceptsVariables: true,
    }),
  },
  async run(ctx) {
    const { channelId } = ctx.parameters;
    const { data: channels } = await ctx.http.request<{
      items?: { contentDetails?: { relatedPlaylists?: { uploads?: string } } }[];
    }>({ path: `${YOUTUBE}/channels`, query: { part: 'contentDetails', id: channelId } });
    const uploads = channels.items?.[0]?.contentDetails?.relatedPlaylists?.uploads;
    if (!uploads) throw new Error(`YouTube has no channel ${channelId}.`);
    const { data } = await ctx.http.request<{ items?: PlaylistItem[] }>({
      path: `${YOUTUBE}/playlistItems`,
      query: { part: 'snippet,contentDetails', playlistId: uploads, maxResults: 50 },
    });
    const published = (item: PlaylistItem) => Date.parse(item.contentDetails.videoPublishedAt ?? '') || 0;
    return [...(data.items ?? [])]
      .sort((a, b) => published(b) - published(a))
      .map((item) => ({ id: item.contentDetails.videoId, data: item }));
  },
});
