import { defineTrigger, dynamicDropdown, pollingTrigger, segment } from '../sdk/index.js';

const boardId = dynamicDropdown({ label: 'Board', required: true, dynamicData: 'listBoards' });
const listId = dynamicDropdown({
  label: 'List',
  dynamicData: 'listBoardLists',
  dependsOn: ['boardId'],
  description: 'Only cards in this list; any list of the board when empty.',
});

type WithId = { id: string };
type MoveAction = WithId & { data?: { listAfter?: { id?: string } } };

/**
 * Trello ids start with their creation time in seconds, as eight hex digits: sorting them sorts
 * by creation, newest first as the engine wants.
 */
const newestFirst = (items: readonly WithId[]) => [...items].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));

export const newCard = pollingTrigger({
  key: 'newCard',
  name: 'New card',
  description: 'Starts the flow for each card created on a board, or in one of its lists.',
  arguments: { boardId, listId },
  request: (p) => ({ path: p.listId ? `/lists/${segment(p.listId)}/cards` : `/boards/${segment(p.boardId)}/cards` }),
  items: newestFirst,
  id: (card: WithId) => card.id,
});

/** The board's latest actions of a type (Trello lists them newest first), 50 a poll. */
const boardActions = (board: string, filter: string) => ({
  path: `/boards/${segment(board)}/actions`,
  query: { filter, limit: 50 },
});

export const newComment = pollingTrigger({
  key: 'newComment',
  name: 'New comment',
  description: 'Starts the flow for each comment added to a card of a board.',
  arguments: { boardId },
  request: (p) => boardActions(p.boardId, 'commentCard'),
  items: '',
  id: (action: WithId) => action.id,
});

/** Trello cannot filter moves by their target list: the poll reads the board's moves and keeps those. */
export const cardMovedToList = defineTrigger({
  key: 'cardMovedToList',
  name: 'Card moved to list',
  description: 'Starts the flow each time a card of a board moves to another list, or to the list chosen.',
  type: 'polling',
  arguments: { boardId, listId },
  async run(ctx) {
    const { boardId: board, listId: list } = ctx.parameters;
    const { data } = await ctx.http.request<MoveAction[]>(boardActions(board, 'updateCard:idList'));
    return data
      .filter((action) => !list || action.data?.listAfter?.id === list)
      .map((action) => ({ id: action.id, data: action }));
  },
});
