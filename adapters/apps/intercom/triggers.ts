import { defineTrigger, dropdown, type TriggerContext } from '../sdk/index.js';

interface Created {
  readonly id: string;
  readonly created_at: number;
}

/**
 * The 50 newest entries a search finds, newest first: Intercom's searches (a POST with the query
 * in the body) sort by `created_at` when asked.
 */
const newest = async (ctx: TriggerContext<unknown>, resource: 'contacts' | 'conversations', query: unknown) => {
  const { data } = await ctx.http.request<Record<string, Created[] | undefined>>({
    method: 'POST',
    path: `/${resource}/search`,
    body: { query, sort: { field: 'created_at', order: 'descending' }, pagination: { per_page: 50 } },
  });
  const found = (resource === 'contacts' ? data.data : data.conversations) ?? [];
  return [...found].sort((a, b) => b.created_at - a.created_at).map((entry) => ({ id: entry.id, data: entry }));
};

/** Everything Intercom holds was created after the epoch: a search needs some condition. */
const ANY_TIME = { field: 'created_at', operator: '>', value: 0 };

export const newContacts = defineTrigger({
  key: 'newContacts',
  name: 'New contacts',
  description: 'Starts the flow for each contact (user or lead) created.',
  type: 'polling',
  arguments: {
    role: dropdown({
      label: 'Role',
      required: true,
      default: 'any',
      options: [
        { label: 'Users and leads', value: 'any' },
        { label: 'Users', value: 'user' },
        { label: 'Leads', value: 'lead' },
      ],
    }),
  },
  run: (ctx) =>
    newest(
      ctx,
      'contacts',
      ctx.parameters.role === 'any'
        ? ANY_TIME
        : { operator: 'AND', value: [ANY_TIME, { field: 'role', operator: '=', value: ctx.parameters.role }] },
    ),
});

export const newConversations = defineTrigger({
  key: 'newConversations',
  name: 'New conversations',
  description: 'Starts the flow for each conversation started.',
  type: 'polling',
  arguments: {},
  run: (ctx) => newest(ctx, 'conversations', ANY_TIME),
});
