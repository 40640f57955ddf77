import { type DraftContext, paginate } from '../sdk/index.js';
import { okOrThrow } from './api.js';

/** Slack's cursor pages: `response_metadata.next_cursor`, empty on the last page. */
const cursorPages = (method: string, key: string) =>
  ({
    kind: 'cursor',
    items: (data: Record<string, unknown>) => okOrThrow(method, data as never)[key] as unknown[],
    next: 'response_metadata.next_cursor',
    param: 'cursor',
  }) as const;

interface Channel {
  readonly id: string;
  readonly name: string;
  readonly created?: number;
}

export const channelsOf = (http: DraftContext['http'], types = 'public_channel,private_channel') =>
  paginate<Channel>(
    http,
    { path: '/conversations.list', query: { types, exclude_archived: true, limit: 200 } },
    cursorPages('conversations.list', 'channels'),
  );

export const listChannels = async (ctx: DraftContext) =>
  (await channelsOf(ctx.http)).map((channel) => ({ name: `#${channel.name}`, value: channel.id }));

export const listUsers = async (ctx: DraftContext) => {
  const members = await paginate<{ id: string; name: string; deleted?: boolean; real_name?: string }>(
    ctx.http,
    { path: '/users.list', query: { limit: 200 } },
    cursorPages('users.list', 'members'),
  );
  return members
    .filter((member) => !member.deleted)
    .map((member) => ({
      name: member.real_name ? `${member.real_name} (@${member.name})` : `@${member.name}`,
      value: member.id,
    }));
};
