import { dropdown, restAction, segment, text } from '../sdk/index.js';
import { adminArgument, contactArgument, conversationArgument } from './arguments.js';

export const replyToConversation = restAction({
  key: 'replyToConversation',
  name: 'Reply to conversation',
  description: 'Replies to a conversation as a teammate, or adds an internal note.',
  arguments: {
    conversationId: conversationArgument(),
    adminId: adminArgument('The teammate who replies.'),
    messageType: dropdown({
      label: 'Reply or note',
      required: true,
      default: 'comment',
      options: [
        { label: 'Reply the customer sees', value: 'comment' },
        { label: 'Internal note', value: 'note' },
      ],
    }),
    body: text({ label: 'Message', required: true, description: 'Text or simple HTML.', acceptsVariables: true }),
  },
  request: (p) => ({
    method: 'POST',
    path: `/conversations/${segment(p.conversationId)}/reply`,
    body: { message_type: p.messageType, type: 'admin', admin_id: p.adminId, body: p.body },
  }),
});

export const sendMessage = restAction({
  key: 'sendMessage',
  name: 'Send message',
  description: 'Starts a conversation with a contact: an in-app message or an e-mail from a teammate.',
  arguments: {
    adminId: adminArgument('The teammate it comes from.'),
    contactId: contactArgument(),
    contactRole: dropdown({
      label: 'Contact role',
      required: true,
      default: 'user',
      options: [
        { label: 'User', value: 'user' },
        { label: 'Lead', value: 'lead' },
      ],
    }),
    messageType: dropdown({
      label: 'Channel',
      required: true,
      default: 'inapp',
      options: [
        { label: 'In-app', value: 'inapp' },
        { label: 'E-mail', value: 'email' },
      ],
    }),
    subject: text({ label: 'Subject', description: 'E-mails only.', acceptsVariables: true }),
    body: text({ label: 'Message', required: true, acceptsVariables: true }),
  },
  check: (p) => (p.messageType === 'email' && !p.subject ? { subject: 'is required for an e-mail.' } : null),
  request: (p) => ({
    method: 'POST',
    path: '/messages',
    body: {
      message_type: p.messageType,
      subject: p.messageType === 'email' ? p.subject : undefined,
      body: p.body,
      template: 'plain',
      from: { type: 'admin', id: p.adminId },
      to: { type: p.contactRole, id: p.contactId },
    },
  }),
});
