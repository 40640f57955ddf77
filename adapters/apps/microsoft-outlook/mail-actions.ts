import { boolean, defineAction, restAction, segment, text } from '../sdk/index.js';
import { addresses, graphMessage, messageArguments, saveToSentItems } from './message.js';

export const sendEmail = defineAction({
  key: 'sendEmail',
  name: 'Send email',
  description: 'Sends an email from the connected mailbox.',
  arguments: { ...messageArguments, saveToSentItems },
  async run(ctx) {
    const p = ctx.parameters;
    // Graph answers 202 with no body: the message has no id until it is in Sent Items.
    await ctx.http.request({
      method: 'POST',
      path: '/me/sendMail',
      body: { message: graphMessage(p), saveToSentItems: p.saveToSentItems },
    });
    return { sent: true, subject: p.subject, to: addresses(p.to), cc: addresses(p.cc), bcc: addresses(p.bcc) };
  },
});

export const createDraft = restAction({
  key: 'createDraft',
  name: 'Create draft',
  description: 'Saves an email in Drafts without sending it; answers the message (its id and webLink).',
  arguments: messageArguments,
  request: (p) => ({ method: 'POST', path: '/me/messages', body: graphMessage(p) }),
});

export const replyToEmail = defineAction({
  key: 'replyToEmail',
  name: 'Reply to email',
  description: 'Replies to an email, in its conversation, with a comment above the quoted message.',
  arguments: {
    messageId: text({ label: 'Message ID', required: true, acceptsVariables: true }),
    comment: text({ label: 'Comment', required: true, acceptsVariables: true }),
    replyAll: boolean({ label: 'Reply to all', default: false }),
  },
  async run(ctx) {
    const { messageId, comment, replyAll } = ctx.parameters;
    await ctx.http.request({
      method: 'POST',
      path: `/me/messages/${segment(messageId)}/${replyAll ? 'replyAll' : 'reply'}`,
      body: { comment },
    });
    return { replied: true, messageId, replyAll };
  },
});
