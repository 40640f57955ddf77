import * as v from 'valibot';
import { defineAction, dynamicDropdown, json, text } from '../sdk/index.js';
import { boardId } from './board-actions.js';
import { mondayQuery } from './graphql.js';

/** A list of names, or Automatisch's rows of them (`[{ subitemName }]`); empty ones are dropped. */
const subitemList = v.pipe(
  v.array(
    v.union([v.string(), v.object({ subitemName: v.optional(v.nullable(v.string())) })]),
    'must be a list of names.',
  ),
  v.transform((rows) =>
    rows.map((row) => (typeof row === 'string' ? row : (row.subitemName ?? ''))).filter((name) => name.trim() !== ''),
  ),
);

const columnValuesSchema = v.custom<Readonly<Record<string, unknown>>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  'must be an object of column ids to values.',
);

type Created = { id: string; name: string };

/** Automatisch's arguments, with `columnValues` added. */
export const createItem = defineAction({
  key: 'createItem',
  name: 'Create item',
  description: 'Creates an item on a board, with column values and subitems; outputs the item.',
  arguments: {
    boardId,
    groupId: dynamicDropdown({
      label: 'Group',
      dynamicData: 'listGroups',
      dependsOn: ['boardId'],
      description: "The board's first group when empty.",
      acceptsVariables: true,
    }),
    itemName: text({ label: 'Item name', required: true, acceptsVariables: true }),
    subitemNames: json({
      label: 'Subitem names',
      description: 'Subitems to create under the item, as a JSON list of names.',
      placeholder: '["Draft", "Review"]',
      schema: subitemList,
    }),
    columnValues: json({
      label: 'Column values',
      description: 'By column id, in the shape monday documents for each column type.',
      placeholder: '{"status": {"label": "Done"}, "date4": {"date": "2025-06-30"}}',
      schema: columnValuesSchema,
    }),
  },
  async run(ctx) {
    const { boardId: board, groupId, itemName, subitemNames = [], columnValues } = ctx.parameters;
    const { create_item: item } = await mondayQuery<{ create_item: Created }>(
      ctx.http,
      'mutation ($board: ID!, $group: String, $name: String!, $values: JSON) { create_item(board_id: $board, group_id: $group, item_name: $name, column_values: $values) { id name group { id } board { id } } }',
      {
        board,
        group: groupId ?? null,
        name: itemName,
        // monday's JSON scalar is a JSON text.
        values: columnValues ? JSON.stringify(columnValues) : null,
      },
    );
    const subitems: Created[] = [];
    for (const name of subitemNames) {
      const { create_subitem } = await mondayQuery<{ create_subitem: Created }>(
        ctx.http,
        'mutation ($parent: ID!, $name: String!) { create_subitem(parent_item_id: $parent, item_name: $name) { id name } }',
        { parent: item.id, name },
      );
      subitems.push(create_subitem);
    }
    return { ...item, subitems };
  },
});

export const createUpdate = defineAction({
  key: 'createUpdate',
  name: 'Create update',
  description: 'Posts an update (a comment) on an item; outputs the update.',
  arguments: {
    itemId: text({ label: 'Item ID', required: true, acceptsVariables: true }),
    body: text({ label: 'Update', required: true, description: 'Text, or HTML.', acceptsVariables: true }),
  },
  async run(ctx) {
    const { create_update } = await mondayQuery<{ create_update: unknown }>(
      ctx.http,
      'mutation ($item: ID!, $body: String!) { create_update(item_id: $item, body: $body) { id body created_at item_id } }',
      { item: ctx.parameters.itemId, body: ctx.parameters.body },
    );
    return create_update;
  },
});
