import { defineAction, dropdown, dynamicDropdown, text } from '../sdk/index.js';
import { mondayQuery } from './graphql.js';

export const boardId = dynamicDropdown({
  label: 'Board',
  required: true,
  dynamicData: 'listBoards',
  acceptsVariables: true,
});

/** Automatisch's arguments. */
export const createBoard = defineAction({
  key: 'createBoard',
  name: 'Create board',
  description: 'Creates a board, empty or from a template; outputs the board.',
  arguments: {
    boardName: text({ label: 'Board name', required: true, acceptsVariables: true }),
    boardKind: dropdown({
      label: 'Board kind',
      required: true,
      options: [
        { label: 'Main', value: 'public' },
        { label: 'Private', value: 'private' },
        { label: 'Shareable', value: 'share' },
      ],
    }),
    templateId: text({
      label: 'Template ID',
      description: "A template's id (developer mode shows them), or a board saved as a template.",
      acceptsVariables: true,
    }),
  },
  async run(ctx) {
    const { boardName, boardKind, templateId } = ctx.parameters;
    const { create_board } = await mondayQuery<{ create_board: unknown }>(
      ctx.http,
      'mutation ($name: String!, $kind: BoardKind!, $template: ID) { create_board(board_name: $name, board_kind: $kind, template_id: $template) { id name board_kind } }',
      { name: boardName, kind: boardKind, template: templateId ?? null },
    );
    return create_board;
  },
});

const COLUMN_TYPES = [
  ['Button', 'button'],
  ['Checkbox', 'checkbox'],
  ['Color picker', 'color_picker'],
  ['Connect boards', 'board_relation'],
  ['Country', 'country'],
  ['Creation log', 'creation_log'],
  ['Date', 'date'],
  ['Dependency', 'dependency'],
  ['Dropdown', 'dropdown'],
  ['Email', 'email'],
  ['Files', 'file'],
  ['Formula', 'formula'],
  ['Hour', 'hour'],
  ['Item ID', 'item_id'],
  ['Last updated', 'last_updated'],
  ['Link', 'link'],
  ['Location', 'location'],
  ['Long text', 'long_text'],
  ['Mirror', 'mirror'],
  ['monday Doc', 'doc'],
  ['Name', 'name'],
  ['Numbers', 'numbers'],
  ['People', 'people'],
  ['Phone', 'phone'],
  ['Rating', 'rating'],
  ['Status', 'status'],
  ['Tags', 'tags'],
  ['Text', 'text'],
  ['Timeline', 'timeline'],
  ['Time tracking', 'time_tracking'],
  ['Vote', 'vote'],
  ['Week', 'week'],
  ['World clock', 'world_clock'],
] as const;

/** Automatisch's arguments and column types. */
export const createColumn = defineAction({
  key: 'createColumn',
  name: 'Create column',
  description: 'Adds a column to a board; outputs the column.',
  arguments: {
    boardId,
    columnTitle: text({ label: 'Column title', required: true, acceptsVariables: true }),
    columnType: dropdown({
      label: 'Column type',
      required: true,
      options: COLUMN_TYPES.map(([label, value]) => ({ label, value })),
    }),
  },
  async run(ctx) {
    const { boardId: board, columnTitle, columnType } = ctx.parameters;
    const { create_column } = await mondayQuery<{ create_column: unknown }>(
      ctx.http,
      'mutation ($board: ID!, $title: String!, $type: ColumnType!) { create_column(board_id: $board, title: $title, column_type: $type) { id title type } }',
      { board, title: columnTitle, type: columnType },
    );
    return create_column;
  },
});
