import { currentMicrosoftUser, draftText, graphPages } from '../microsoft-common/index.js';
import { type DraftContext, type DynamicOption, dropdown, dynamicDropdown, segment, text } from '../sdk/index.js';

export const teamId = dynamicDropdown({ label: 'Team', required: true, dynamicData: 'listTeams' });

export const channelId = dynamicDropdown({
  label: 'Channel',
  required: true,
  dynamicData: 'listChannels',
  dependsOn: ['teamId'],
});

export const chatId = dynamicDropdown({ label: 'Chat', required: true, dynamicData: 'listChats' });

export const content = text({ label: 'Message', required: true, acceptsVariables: true });

export const contentType = dropdown({
  label: 'Message format',
  default: 'text',
  options: [
    { label: 'Text', value: 'text' },
    { label: 'HTML', value: 'html' },
  ],
});

export const channelMessages = (p: { readonly teamId: string; readonly channelId: string }) =>
  `/teams/${segment(p.teamId)}/channels/${segment(p.channelId)}/messages`;

export const chatMessages = (p: { readonly chatId: string }) => `/chats/${segment(p.chatId)}/messages`;

/**
 * An id inside a subscription's resource, which Graph reads as written (`19:...@thread.tacv2`, not
 * percent-encoded): one that would reach another path is refused.
 */
const resourceId = (id: string) => {
  if (/[/?#\s]/.test(id)) throw new Error(`Not a Teams id: ${id}`);
  return id;
};

export const channelMessagesResource = (p: { readonly teamId: string; readonly channelId: string }) =>
  `/teams/${resourceId(p.teamId)}/channels/${resourceId(p.channelId)}/messages`;

export const chatMessagesResource = (p: { readonly chatId: string }) => `/chats/${resourceId(p.chatId)}/messages`;

/** Graph's chatMessage body. */
export const messageBody = (p: { readonly content: string; readonly contentType: 'text' | 'html' }) => ({
  body: { contentType: p.contentType, content: p.content },
});

/** Users' messages; not Teams' own events (a member added, a channel renamed). */
export const isUserMessage = (message: { readonly messageType?: string }) => message.messageType === 'message';

interface Named {
  readonly id: string;
  readonly displayName?: string;
}

const options = (entries: readonly Named[]): DynamicOption[] =>
  entries.map((entry) => ({ name: entry.displayName ?? entry.id, value: entry.id }));

/** Dynamic data `listTeams`: the teams the user is a member of. */
export const listTeams = async (ctx: DraftContext): Promise<DynamicOption[]> =>
  options(await graphPages<Named>(ctx.http, { path: '/me/joinedTeams' }));

/** Dynamic data `listChannels`: the chosen team's channels. */
export const listChannels = async (ctx: DraftContext): Promise<DynamicOption[]> => {
  const team = draftText(ctx.parameters.teamId);
  return team ? options(await graphPages<Named>(ctx.http, { path: `/teams/${segment(team)}/channels` })) : [];
};

interface Chat {
  readonly id: string;
  readonly topic?: string | null;
  readonly chatType?: string;
  readonly members?: readonly { readonly displayName?: string | null; readonly userId?: string }[];
}

/** Dynamic data `listChats`: the user's chats, named by their topic or else by the other members; every page. */
export const listChats = async (ctx: DraftContext): Promise<DynamicOption[]> => {
  const me = await currentMicrosoftUser(ctx.http);
  const chats = await graphPages<Chat>(ctx.http, { path: '/me/chats', query: { $expand: 'members', $top: 50 } });
  return chats.map((chat) => {
    const members = (chat.members ?? [])
      .filter((member) => member.userId !== me.id)
      .map((member) => member.displayName)
      .filter(Boolean);
    return { name: chat.topic || members.join(', ') || chat.id, value: chat.id };
  });
};
