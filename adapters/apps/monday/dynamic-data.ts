import type { DraftContext } from '../sdk/index.js';
import { mondayPages, mondayQuery } from './graphql.js';

type Board = { id: string; name: string; type?: string };

/** Boards only: monday lists subitem boards and documents as boards too. */
export const onlyBoards = <T extends { type?: string }>(boards: readonly T[]) =>
  boards.filter((board) => board.type === undefined || board.type === 'board');

export const mondayDynamicData = {
  async listBoards(ctx: DraftContext) {
    const boards = await mondayPages<Board, { boards: Board[] }>(
      ctx.http,
      'query ($limit: Int!, $page: Int!) { boards(limit: $limit, page: $page, state: active) { id name type } }',
      {},
      (data) => data.boards,
    );
    return onlyBoards(boards).map((board) => ({ name: board.name, value: board.id }));
  },

  async listGroups(ctx: DraftContext) {
    const board = ctx.parameters.boardId;
    if (typeof board !== 'string' && typeof board !== 'number') return [];
    const { boards } = await mondayQuery<{ boards: { groups: { id: string; title: string }[] }[] }>(
      ctx.http,
      'query ($board: [ID!]) { boards(ids: $board) { groups { id title } } }',
      { board: [String(board)] },
    );
    return (boards[0]?.groups ?? []).map((group) => ({ name: group.title, value: group.id }));
  },
};
