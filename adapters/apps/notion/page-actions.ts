import { defineAction, dynamicDropdown, dynamicMultiSelect } from '../sdk/index.js';
import { getDatabase, type Page, paragraph, richText, titleProperty } from './api.js';
import { databaseId, longText } from './arguments.js';

const children = (content: string | undefined) => (content ? [paragraph(content)] : []);

/** Automatisch's arguments, with `tags` (its `listTags`) added. */
export const createDatabaseItem = defineAction({
  key: 'createDatabaseItem',
  name: 'Create database item',
  description: 'Creates an item (a page) in a database; outputs the page.',
  arguments: {
    databaseId,
    name: longText('Name', "The item's title."),
    content: longText('Content', 'A paragraph for the page body.'),
    tags: dynamicMultiSelect({
      label: 'Tags',
      dynamicData: 'listTags',
      dependsOn: ['databaseId'],
      description: 'Options of the database\'s "Tags" multi-select.',
    }),
  },
  async run(ctx) {
    const { databaseId: database, name, content, tags } = ctx.parameters;
    // The title property has the name its database gave it ("Name", "Task"...).
    const title = titleProperty(await getDatabase(ctx.http, database));
    const { data } = await ctx.http.request({
      method: 'POST',
      path: '/pages',
      body: {
        parent: { database_id: database },
        properties: {
          ...(name && { [title]: { title: richText(name) } }),
          ...(tags && tags.length > 0 && { Tags: { multi_select: tags.map((tag) => ({ name: tag })) } }),
        },
        children: children(content),
      },
    });
    return data;
  },
});

/** Automatisch's arguments. */
export const createPage = defineAction({
  key: 'createPage',
  name: 'Create page',
  description: 'Creates a page inside a parent page; outputs the page.',
  arguments: {
    parentPageId: dynamicDropdown({
      label: 'Parent page',
      required: true,
      dynamicData: 'listParentPages',
      acceptsVariables: true,
    }),
    title: longText('Title', "The page's title."),
    content: longText('Content', 'A paragraph for the page body.'),
  },
  async run(ctx) {
    const { parentPageId, title, content } = ctx.parameters;
    const { data } = await ctx.http.request({
      method: 'POST',
      path: '/pages',
      body: {
        parent: { page_id: parentPageId },
        properties: title ? { title: { title: richText(title) } } : {},
        children: children(content),
      },
    });
    return data;
  },
});

/** Automatisch's arguments. */
export const findDatabaseItem = defineAction({
  key: 'findDatabaseItem',
  name: 'Find database item',
  description:
    'Finds the item of a database whose title is the name given, the last edited first; outputs it, or null.',
  arguments: { databaseId, name: longText('Name', 'The title to look for.') },
  async run(ctx) {
    const { databaseId: database, name = '' } = ctx.parameters;
    const title = titleProperty(await getDatabase(ctx.http, database));
    const { data } = await ctx.http.request<{ results: Page[] }>({
      method: 'POST',
      path: `/databases/${encodeURIComponent(database)}/query`,
      body: {
        filter: { property: title, title: { equals: name.slice(0, 2000) } },
        sorts: [{ timestamp: 'last_edited_time', direction: 'descending' }],
        page_size: 1,
      },
    });
    return data.results[0] ?? null;
  },
});
