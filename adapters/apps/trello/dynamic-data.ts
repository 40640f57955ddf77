import { type DraftContext, segment } from '../sdk/index.js';

type Named = { id: string; name?: string; fullName?: string; color?: string | null };

const boardOf = (ctx: DraftContext) => {
  const board = ctx.parameters.boardId;
  return typeof board === 'string' && board !== '' ? board : null;
};

/** Trello answers these lists whole (no pages): a board's lists, labels and members are few. */
const fromBoard =
  (what: 'lists' | 'labels' | 'members', fields: string, name: (item: Named) => string) =>
  async (ctx: DraftContext) => {
    const board = boardOf(ctx);
    if (!board) return [];
    const { data } = await ctx.http.request<Named[]>({
      path: `/boards/${segment(board)}/${what}`,
      query: { fields },
    });
    return data.map((item) => ({ name: name(item), value: item.id }));
  };

export const trelloDynamicData = {
  async listBoards(ctx: DraftContext) {
    const { data } = await ctx.http.request<Named[]>({
      path: '/members/me/boards',
      query: { filter: 'open', fields: 'name' },
    });
    return data.map((board) => ({ name: board.name ?? board.id, value: board.id }));
  },
  listBoardLists: fromBoard('lists', 'name', (list) => list.name ?? list.id),
  // Labels may have no name: their colour is what the board shows.
  listBoardLabels: fromBoard('labels', 'name,color', (label) => label.name || label.color || label.id),
  listMembers: fromBoard('members', 'fullName,username', (member) => member.fullName ?? member.id),
};
