import { defineTrigger, type HttpClient, segment } from '../sdk/index.js';
import type { Page } from './api.js';
import { databaseId } from './arguments.js';

type Dated = Page & { last_edited_time?: string };

/** The database's 100 latest items by a timestamp, newest first: one poll's worth. */
const latest = async (
  ctx: { http: HttpClient; parameters: { databaseId: string } },
  timestamp: 'created_time' | 'last_edited_time',
) => {
  const { data } = await ctx.http.request<{ results: Dated[] }>({
    method: 'POST',
    path: `/databases/${segment(ctx.parameters.databaseId)}/query`,
    body: { sorts: [{ timestamp, direction: 'descending' }], page_size: 100 },
  });
  return data.results;
};

/** Automatisch's trigger. */
export const newDatabaseItems = defineTrigger({
  key: 'newDatabaseItems',
  name: 'New database items',
  description: 'Starts the flow for each item created in a database.',
  type: 'polling',
  arguments: { databaseId },
  run: async (ctx) => (await latest(ctx, 'created_time')).map((item) => ({ id: item.id, data: item })),
});

/** Automatisch's trigger: an item edited again is new again (its id carries the edit time). */
export const updatedDatabaseItems = defineTrigger({
  key: 'updatedDatabaseItems',
  name: 'Updated database items',
  description: 'Starts the flow each time an item of a database is edited.',
  type: 'polling',
  arguments: { databaseId },
  run: async (ctx) =>
    (await latest(ctx, 'last_edited_time')).map((item) => ({ id: `${item.id}-${item.last_edited_time}`, data: item })),
});
