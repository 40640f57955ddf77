import { defineTrigger, dynamicDropdown } from '../sdk/index.js';

interface Form {
  readonly id: string;
  readonly created_at?: string;
}

export const newForm = defineTrigger({
  key: 'newForm',
  name: 'New form',
  description: 'Starts the flow when a form is created (in a workspace, or anywhere in the account).',
  type: 'polling',
  arguments: {
    workspaceId: dynamicDropdown({ label: 'Workspace', dynamicData: 'listWorkspaces' }),
  },
  async run(ctx) {
    const { data } = await ctx.http.request<{ items: readonly Form[] }>({
      path: '/forms',
      query: {
        page_size: 200,
        sort_by: 'created_at',
        order_by: 'desc',
        ...(ctx.parameters.workspaceId && { workspace_id: ctx.parameters.workspaceId }),
      },
    });
    // Newest first whatever order the answer came in: forms without a date go last.
    return [...data.items]
      .sort((a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? ''))
      .map((form) => ({ id: form.id, data: form }));
  },
});
