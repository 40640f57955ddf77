import { byPageToken } from '../google-common/index.js';
import { type DraftContext, paginate, segment } from '../sdk/index.js';
import { type GmailMessage, getMessages, headerOf, ME, mapLimited } from './gmail.js';

interface SendAs {
  readonly sendAsEmail: string;
  readonly displayName?: string;
  readonly signature?: string;
  readonly isPrimary?: boolean;
}

const sendAsList = async (ctx: DraftContext) =>
  (await ctx.http.request<{ sendAs?: SendAs[] }>({ path: `${ME}/settings/sendAs` })).data.sendAs ?? [];

/** The addresses and aliases the account may send as (Gmail's send-as list), the primary first. */
export const listEmails = async (ctx: DraftContext) =>
  (await sendAsList(ctx))
    .sort((a, b) => Number(b.isPrimary ?? false) - Number(a.isPrimary ?? false))
    .map((entry) => ({
      name: entry.displayName ? `${entry.displayName} <${entry.sendAsEmail}>` : entry.sendAsEmail,
      value: entry.sendAsEmail,
    }));

/** Each send-as address's signature (HTML, as Gmail keeps it); addresses without one are left out. */
export const listSignatures = async (ctx: DraftContext) =>
  (await sendAsList(ctx))
    .filter((entry) => entry.signature)
    .map((entry) => ({ name: entry.sendAsEmail, value: entry.signature ?? '' }));

export const listLabels = async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<{ labels?: { id: string; name: string }[] }>({ path: `${ME}/labels` });
  return (data.labels ?? []).map((label) => ({ name: label.name, value: label.id }));
};

/** Recent entries for a dropdown: two pages of 25, each named by its subject. */
const RECENT = { maxItems: 50 };

export const listMessages = async (ctx: DraftContext) => {
  const ids = await paginate<{ id: string }>(
    ctx.http,
    { path: `${ME}/messages`, query: { maxResults: 25 } },
    byPageToken('messages'),
    RECENT,
  );
  const messages = await getMessages(
    ctx.http,
    ids.map((message) => message.id),
    { metadataHeaders: ['Subject'] },
  );
  return messages.map((message) => ({ name: headerOf(message, 'Subject') || '(no subject)', value: message.id }));
};

/** Recent threads, each named by its first message's subject. */
export const listThreads = async (ctx: DraftContext) => {
  const threads = await paginate<{ id: string }>(
    ctx.http,
    { path: `${ME}/threads`, query: { maxResults: 25 } },
    byPageToken('threads'),
    RECENT,
  );
  return mapLimited(threads, 10, async (thread) => {
    const { data } = await ctx.http.request<{ messages?: GmailMessage[] }>({
      path: `${ME}/threads/${segment(thread.id)}`,
      query: { format: 'metadata', metadataHeaders: 'Subject' },
    });
    return { name: headerOf(data.messages?.[0], 'Subject') || '(no subject)', value: thread.id };
  });
};
