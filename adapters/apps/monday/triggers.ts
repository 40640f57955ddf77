import { defineTrigger, dynamicDropdown } from '../sdk/index.js';
import { onlyBoards } from './dynamic-data.js';
import { mondayQuery } from './graphql.js';

type WithId = { id: string; type?: string };

const asItems = (entries: readonly WithId[]) => entries.map((entry) => ({ id: entry.id, data: entry }));

/** Automatisch's trigger: monday orders boards by creation, newest first. */
export const newBoard = defineTrigger({
  key: 'newBoard',
  name: 'New board',
  description: 'Starts the flow for each board created in the account.',
  type: 'polling',
  arguments: {},
  async run(ctx) {
    const { boards } = await mondayQuery<{ boards: WithId[] }>(
      ctx.http,
      'query { boards(limit: 100, order_by: created_at) { id name type board_kind state workspace_id } }',
    );
    return asItems(onlyBoards(boards));
  },
});

/** Automatisch's trigger. */
export const newUsers = defineTrigger({
  key: 'newUsers',
  name: 'New users',
  description: 'Starts the flow for each user who joins the account.',
  type: 'polling',
  arguments: {},
  async run(ctx) {
    const { users } = await mondayQuery<{ users: WithId[] }>(
      ctx.http,
      'query { users(limit: 100, newest_first: true) { id name email title created_at } }',
    );
    return asItems(users);
  },
});

const NEW_ITEMS = `query ($board: [ID!]) { boards(ids: $board) { items_page(limit: 50, query_params: { order_by: [{ column_id: "__creation_log__", direction: desc }] }) { items { id name created_at group { id title } column_values { id type text value } } } } }`;

export const newItem = defineTrigger({
  key: 'newItem',
  name: 'New item',
  description: 'Starts the flow for each item created on a board.',
  type: 'polling',
  arguments: { boardId: dynamicDropdown({ label: 'Board', required: true, dynamicData: 'listBoards' }) },
  async run(ctx) {
    const { boards } = await mondayQuery<{ boards: { items_page: { items: WithId[] } }[] }>(ctx.http, NEW_ITEMS, {
      board: [ctx.parameters.boardId],
    });
    return asItems(boards[0]?.items_page.items ?? []);
  },
});
