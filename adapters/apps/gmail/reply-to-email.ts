import { defineAction, dynamicDropdown, segment } from '../sdk/index.js';
import { bccs, bodyType, ccs, emailBody, from, fromName, replyTo, tos } from './arguments.js';
import { composed } from './compose.js';
import { type GmailMessage, headerOf, ME } from './gmail.js';

const REPLY_HEADERS = ['Message-ID', 'References', 'Subject', 'From', 'Reply-To'];

/** Automatisch's reply, made a reply that mail clients thread: to the thread's last message, by its Message-ID. */
export const replyToEmail = defineAction({
  key: 'replyToEmail',
  name: 'Reply to email',
  description: 'Respond to an email.',
  arguments: {
    threadId: dynamicDropdown({ label: 'Thread', required: true, acceptsVariables: true, dynamicData: 'listThreads' }),
    tos: tos(false),
    ccs,
    bccs,
    from,
    fromName,
    replyTo,
    bodyType,
    emailBody,
    labelId: dynamicDropdown({
      label: 'Label',
      description: 'A label for the reply.',
      acceptsVariables: true,
      dynamicData: 'listLabels',
    }),
  },
  async run(ctx) {
    const { threadId, labelId } = ctx.parameters;
    const { data: thread } = await ctx.http.request<{ messages?: GmailMessage[] }>({
      path: `${ME}/threads/${segment(threadId)}`,
      query: { format: 'metadata', metadataHeaders: REPLY_HEADERS.join(',') },
    });
    const last = thread.messages?.at(-1);
    if (!last) throw new Error(`The thread ${threadId} has no message to reply to.`);
    const messageId = headerOf(last, 'Message-ID');
    const subject = headerOf(last, 'Subject') ?? '';
    const to =
      ctx.parameters.tos.length > 0 ? ctx.parameters.tos : [headerOf(last, 'Reply-To') ?? headerOf(last, 'From') ?? ''];
    const raw = composed(
      { ...ctx.parameters, tos: to.filter(Boolean), subject: /^re:/i.test(subject) ? subject : `Re: ${subject}` },
      {
        inReplyTo: messageId,
        references: [headerOf(last, 'References'), messageId].filter(Boolean).join(' ') || undefined,
      },
    );
    const { data: sent } = await ctx.http.request<GmailMessage>({
      method: 'POST',
      path: `${ME}/messages/send`,
      body: { threadId, raw },
    });
    if (!labelId) return sent;
    // Sending applies no label of the sender's choosing: the reply is labelled after.
    const { data: labelled } = await ctx.http.request<GmailMessage>({
      method: 'POST',
      path: `${ME}/messages/${segment(sent.id)}/modify`,
      body: { addLabelIds: [labelId] },
    });
    return labelled;
  },
});
