import { defineTrigger, dynamicDropdown, segment } from '../sdk/index.js';

interface Post {
  readonly id: string;
  readonly type?: string;
  readonly create_at?: number;
}

/** Joins, leaves, header changes...: Mattermost writes them as posts of a `system_` type. */
const isSystem = (post: Post) => (post.type ?? '').startsWith('system_');

export const newMessage = defineTrigger({
  key: 'newMessage',
  name: 'New message in channel',
  description: 'Starts the flow for each message posted in a channel (replies included).',
  type: 'polling',
  arguments: {
    channel: dynamicDropdown({ label: 'Channel', required: true, dynamicData: 'listChannels' }),
  },
  async run(ctx) {
    const { data } = await ctx.http.request<{ order?: string[]; posts?: Record<string, Post> }>({
      path: `/channels/${segment(ctx.parameters.channel)}/posts`,
      query: { page: 0, per_page: 100 },
    });
    const posts = (data.order ?? []).flatMap((id) => (data.posts?.[id] ? [data.posts[id]] : []));
    return posts
      .filter((post) => !isSystem(post))
      .sort((a, b) => (b.create_at ?? 0) - (a.create_at ?? 0))
      .map((post) => ({ id: post.id, data: post }));
  },
});
