import type { DraftContext } from '../sdk/index.js';
import { getDatabase, notionPages, type Page, pageTitle, plainText, type RichText } from './api.js';

type Found = {
  id: string;
  title?: RichText;
  parent?: { type?: string; workspace?: boolean };
  properties?: Page['properties'];
};

const search = (ctx: DraftContext, object: 'database' | 'page') =>
  notionPages<Found>(ctx.http, '/search', { filter: { property: 'object', value: object } });

const databaseOf = (ctx: DraftContext) => {
  const id = ctx.parameters.databaseId;
  return typeof id === 'string' && id !== '' ? id : null;
};

/** Automatisch's keys. Notion shows an integration only what was shared with it. */
export const notionDynamicData = {
  async listDatabases(ctx: DraftContext) {
    return (await search(ctx, 'database')).map((database) => ({
      name: plainText(database.title) || 'Untitled database',
      value: database.id,
    }));
  },

  /** Pages at the top of the workspace, as Automatisch lists them for a new page's parent. */
  async listParentPages(ctx: DraftContext) {
    return (await search(ctx, 'page'))
      .filter((page) => page.parent?.type === 'workspace' || page.parent?.workspace === true)
      .map((page) => ({
        name: pageTitle({ id: page.id, properties: page.properties }) || 'Untitled page',
        value: page.id,
      }));
  },

  async listDatabaseItems(ctx: DraftContext) {
    const database = databaseOf(ctx);
    if (!database) return [];
    const items = await notionPages<Page>(ctx.http, `/databases/${encodeURIComponent(database)}/query`, {});
    return items.map((item) => ({ name: pageTitle(item) || 'Untitled page', value: item.id }));
  },

  /** The options of the database's `Tags` multi-select, by name. */
  async listTags(ctx: DraftContext) {
    const database = databaseOf(ctx);
    if (!database) return [];
    const tags = (await getDatabase(ctx.http, database)).properties.Tags;
    return (tags?.multi_select?.options ?? []).map((option) => ({ name: option.name, value: option.name }));
  },
};
