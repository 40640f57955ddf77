import { dropdown, dynamicDropdown, dynamicMultiSelect, restAction, text } from '../sdk/index.js';

export const cardPosition = dropdown({
  label: 'Card position',
  options: [
    { label: 'Top', value: 'top' },
    { label: 'Bottom', value: 'bottom' },
  ],
});

export const boardId = dynamicDropdown({
  label: 'Board',
  required: true,
  dynamicData: 'listBoards',
  acceptsVariables: true,
});

export const listId = dynamicDropdown({
  label: 'List',
  required: true,
  dynamicData: 'listBoardLists',
  dependsOn: ['boardId'],
  acceptsVariables: true,
});

/** Automatisch's arguments, key for key. */
export const createCard = restAction({
  key: 'createCard',
  name: 'Create card',
  description: 'Creates a card in a list of a board.',
  arguments: {
    boardId,
    listId,
    name: text({ label: 'Name', required: true, acceptsVariables: true }),
    description: text({ label: 'Description', acceptsVariables: true }),
    label: dynamicDropdown({
      label: 'Label',
      dynamicData: 'listBoardLabels',
      dependsOn: ['boardId'],
      description: 'A label of the board to put on the card.',
      acceptsVariables: true,
    }),
    cardPosition,
    memberIds: dynamicMultiSelect({
      label: 'Members',
      dynamicData: 'listMembers',
      dependsOn: ['boardId'],
      rowKey: 'memberId',
    }),
    dueDate: text({
      label: 'Due date',
      description: 'A date Trello reads, e.g. 2025-06-30T17:00:00Z or 2025-06-30.',
      acceptsVariables: true,
    }),
    urlSource: text({ label: 'URL attachment', description: 'A link to attach to the card.', acceptsVariables: true }),
  },
  request: (p) => ({
    method: 'POST',
    path: '/cards',
    body: {
      idList: p.listId,
      name: p.name,
      desc: p.description,
      pos: p.cardPosition,
      due: p.dueDate,
      idMembers: p.memberIds && p.memberIds.length > 0 ? p.memberIds : undefined,
      idLabels: p.label ? [p.label] : undefined,
      urlSource: p.urlSource,
    },
  }),
});
