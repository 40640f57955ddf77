import { restAction, segment, text } from '../sdk/index.js';
import {
  channelId,
  channelMessages,
  chatId,
  chatMessages,
  content,
  contentType,
  messageBody,
  teamId,
} from './places.js';

export const sendChannelMessage = restAction({
  key: 'sendChannelMessage',
  name: 'Send channel message',
  description: 'Posts a message in a channel; answers the message (its id and webUrl).',
  arguments: {
    teamId,
    channelId,
    subject: text({ label: 'Subject', acceptsVariables: true }),
    content,
    contentType,
  },
  request: (p) => ({
    method: 'POST',
    path: channelMessages(p),
    body: { ...(p.subject !== undefined && { subject: p.subject }), ...messageBody(p) },
  }),
});

export const replyToChannelMessage = restAction({
  key: 'replyToChannelMessage',
  name: 'Reply to channel message',
  description: "Replies in a channel message's thread; answers the reply.",
  arguments: {
    teamId,
    channelId,
    messageId: text({ label: 'Message ID', required: true, acceptsVariables: true }),
    content,
    contentType,
  },
  request: (p) => ({
    method: 'POST',
    path: `${channelMessages(p)}/${segment(p.messageId)}/replies`,
    body: messageBody(p),
  }),
});

export const sendChatMessage = restAction({
  key: 'sendChatMessage',
  name: 'Send chat message',
  description: 'Posts a message in a chat; answers the message.',
  arguments: { chatId, content, contentType },
  request: (p) => ({ method: 'POST', path: chatMessages(p), body: messageBody(p) }),
});

export const createChannel = restAction({
  key: 'createChannel',
  name: 'Create channel',
  description: 'Creates a standard channel in a team (every member sees it); answers the channel.',
  arguments: {
    teamId,
    displayName: text({ label: 'Name', required: true, acceptsVariables: true }),
    description: text({ label: 'Description', acceptsVariables: true }),
  },
  request: (p) => ({
    method: 'POST',
    path: `/teams/${segment(p.teamId)}/channels`,
    body: {
      displayName: p.displayName,
      ...(p.description !== undefined && { description: p.description }),
      membershipType: 'standard',
    },
  }),
});
