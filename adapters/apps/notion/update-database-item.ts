import {
  type DraftContext,
  defineAction,
  describeArguments,
  dynamicDropdown,
  parseParameters,
  segment,
} from '../sdk/index.js';
import { getDatabase, paragraph, richText } from './api.js';
import { databaseId, longText } from './arguments.js';
import { propertyFields, propertyValues } from './properties.js';

type Block = { id: string; type: string };

const REWRITABLE = new Set(['paragraph', 'heading_1', 'heading_2', 'heading_3']);

/**
 * Automatisch's way with `content`: the page's first block is rewritten when it is a paragraph or
 * a heading (keeping its type), else a paragraph is appended.
 */
const writeContent = async (ctx: { http: DraftContext['http'] }, page: string, content: string) => {
  const { data } = await ctx.http.request<{ results: Block[] }>({
    path: `/blocks/${segment(page)}/children`,
    query: { page_size: 1 },
  });
  const first = data.results[0];
  if (first && REWRITABLE.has(first.type)) {
    await ctx.http.request({
      method: 'PATCH',
      path: `/blocks/${segment(first.id)}`,
      body: { [first.type]: { rich_text: richText(content) } },
    });
    return;
  }
  await ctx.http.request({
    method: 'PATCH',
    path: `/blocks/${segment(page)}/children`,
    body: { children: [paragraph(content)] },
  });
};

/** Automatisch's arguments; the database's properties are dynamic fields `property_<name>`. */
export const updateDatabaseItem = defineAction({
  key: 'updateDatabaseItem',
  name: 'Update database item',
  description: "Sets an item's properties, and its first paragraph; outputs the page.",
  dynamicFieldsKey: 'listDatabaseProperties',
  arguments: {
    databaseId,
    itemId: dynamicDropdown({
      label: 'Item',
      required: true,
      dynamicData: 'listDatabaseItems',
      dependsOn: ['databaseId'],
      acceptsVariables: true,
    }),
    content: longText('Content', 'Text for the first paragraph of the page.'),
  },
  async run(ctx) {
    const { databaseId: database, itemId, content } = ctx.parameters;
    const schema = await getDatabase(ctx.http, database);
    // Dynamic fields come unchecked: they are checked here against the database as it is now.
    const fields = propertyFields(schema);
    const values = parseParameters(fields, ctx.parameters);
    if (content) await writeContent(ctx, itemId, content);
    const { data } = await ctx.http.request({
      method: 'PATCH',
      path: `/pages/${segment(itemId)}`,
      body: { properties: propertyValues(schema, values) },
    });
    return data;
  },
});

export const listDatabaseProperties = async (ctx: DraftContext) => {
  const database = ctx.parameters.databaseId;
  if (typeof database !== 'string' || database === '') return [];
  return describeArguments(propertyFields(await getDatabase(ctx.http, database)));
};
