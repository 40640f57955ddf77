import { defineTrigger, dynamicDropdown, text } from '../sdk/index.js';
import { getMessages, ME } from './gmail.js';

/** Messages a poll reads in full: the newest ones; runs start only for those the flow has not seen. */
const PER_POLL = 20;

/** The newest messages a search or label names, in full, newest first, by message id. */
const newestMessages = async (http: Parameters<typeof getMessages>[0], query: Record<string, string>) => {
  const { data } = await http.request<{ messages?: { id: string }[] }>({
    path: `${ME}/messages`,
    query: { maxResults: PER_POLL, ...query },
  });
  const messages = await getMessages(
    http,
    (data.messages ?? []).map((message) => message.id),
    'full',
  );
  return messages.map((message) => ({ id: message.id, data: message }));
};

export const newEmails = defineTrigger({
  key: 'newEmails',
  name: 'New emails',
  description: 'Triggers when a new email is received in the specified mailbox.',
  type: 'polling',
  arguments: {
    labelId: dynamicDropdown({
      label: 'Label',
      description: "If you don't choose a label, this event will be triggered for all emails, including Drafts.",
      acceptsVariables: true,
      dynamicData: 'listLabels',
    }),
  },
  run: (ctx) => newestMessages(ctx.http, ctx.parameters.labelId ? { labelIds: ctx.parameters.labelId } : {}),
});

export const newEmailsMatchingSearch = defineTrigger({
  key: 'newEmailsMatchingSearch',
  name: 'New emails matching search',
  description: 'Triggers when a new email matches a Gmail search (from:, subject:, has:attachment...).',
  type: 'polling',
  arguments: {
    query: text({
      label: 'Search',
      required: true,
      description: 'Gmail search operators, as in the search box: from:billing@example.com has:attachment',
      acceptsVariables: true,
    }),
  },
  run: (ctx) => newestMessages(ctx.http, { q: ctx.parameters.query }),
});
