import { defineAction, text } from '../sdk/index.js';
import { bccs, bodyType, ccs, emailBody, from, fromName, replyTo, signature, tos } from './arguments.js';
import { composed } from './compose.js';
import { ME } from './gmail.js';

export const sendEmail = defineAction({
  key: 'sendEmail',
  name: 'Send email',
  description: 'Send a new email message.',
  arguments: {
    tos: tos(true),
    ccs,
    bccs,
    from,
    fromName,
    replyTo,
    subject: text({ label: 'Subject', required: true, acceptsVariables: true }),
    bodyType,
    emailBody,
    signature,
  },
  async run(ctx) {
    // Gmail has no idempotency key: a step retried after an answer was lost may send twice.
    const { data } = await ctx.http.request({
      method: 'POST',
      path: `${ME}/messages/send`,
      body: { raw: composed(ctx.parameters) },
    });
    return data;
  },
});
