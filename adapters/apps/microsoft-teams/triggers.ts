import { graphNotificationTrigger } from '../microsoft-common/index.js';
import { pollingTrigger, segment } from '../sdk/index.js';
import {
  channelId,
  channelMessages,
  channelMessagesResource,
  chatId,
  chatMessages,
  chatMessagesResource,
  isUserMessage,
  teamId,
} from './places.js';

/** Teams messages live at most 60 minutes per subscription: a margin below, renewed as Graph asks. */
const MESSAGE_SUBSCRIPTION_MINUTES = 55;

type Message = { readonly createdDateTime?: string; readonly messageType?: string };

const newestFirst = (messages: readonly Message[] = []) =>
  messages.filter(isUserMessage).sort((a, b) => (b.createdDateTime ?? '').localeCompare(a.createdDateTime ?? ''));

export const newChannelMessage = pollingTrigger({
  key: 'newChannelMessage',
  name: 'New channel message',
  description: 'Starts a run for each message posted in a channel (replies excluded).',
  arguments: { teamId, channelId },
  // Channel messages take $top (50 at most) and nothing else: the page is put in order here.
  request: (p) => ({ path: channelMessages(p), query: { $top: 50 } }),
  items: (data: { value?: Message[] }) => newestFirst(data.value),
  id: (message) => message.id,
});

export const newChatMessage = pollingTrigger({
  key: 'newChatMessage',
  name: 'New chat message',
  description: 'Starts a run for each message posted in a chat.',
  arguments: { chatId },
  request: (p) => ({ path: chatMessages(p), query: { $top: 50, $orderby: 'createdDateTime desc' } }),
  items: (data: { value?: Message[] }) => newestFirst(data.value),
  id: (message) => message.id,
});

export const newChannelMessageInstant = graphNotificationTrigger({
  key: 'newChannelMessageInstant',
  name: 'New channel message (instant)',
  description: 'Starts a run as soon as a message is posted in a channel (Graph change notifications).',
  arguments: { teamId, channelId },
  resource: channelMessagesResource,
  changeType: 'created',
  lifetimeMinutes: MESSAGE_SUBSCRIPTION_MINUTES,
  entry: (id, p) => `${channelMessages(p)}/${segment(id)}`,
  accept: isUserMessage,
});

export const newChatMessageInstant = graphNotificationTrigger({
  key: 'newChatMessageInstant',
  name: 'New chat message (instant)',
  description: 'Starts a run as soon as a message is posted in a chat (Graph change notifications).',
  arguments: { chatId },
  resource: chatMessagesResource,
  changeType: 'created',
  lifetimeMinutes: MESSAGE_SUBSCRIPTION_MINUTES,
  entry: (id, p) => `${chatMessages(p)}/${segment(id)}`,
  accept: isUserMessage,
});
