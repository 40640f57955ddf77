import { type DraftContext, paginate, segment } from '../sdk/index.js';

type Entry = { id?: string | number; name?: string; username?: string; status?: string };
type Option = { name: string; value: string | number };

const byId = (entry: Entry): Option => ({ name: entry.name ?? String(entry.id), value: entry.id ?? '' });
/** Statuses and tags have no id: tasks name them. */
const byName =
  (field: 'status' | 'name') =>
  (entry: Entry): Option => ({ name: entry[field] ?? '', value: entry[field] ?? '' });

const chosen = (ctx: DraftContext, key: string) => {
  const value = ctx.parameters[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
};

/** A list inside something chosen first (a workspace, a space, a list); nothing until it is. */
const inside =
  (key: string, path: (id: string) => string, field: string, option: (entry: Entry) => Option = byId) =>
  async (ctx: DraftContext) => {
    const id = chosen(ctx, key);
    if (!id) return [];
    const { data } = await ctx.http.request<Record<string, Entry[] | undefined>>({ path: path(segment(id)) });
    return (data[field] ?? []).map(option);
  };

/**
 * Automatisch's keys. ClickUp answers these lists whole, except a list's tasks, which come 100 a
 * page (`page=0, 1...`) until `last_page`.
 */
export const clickupDynamicData = {
  async listWorkspaces(ctx: DraftContext) {
    const { data } = await ctx.http.request<{ teams?: Entry[] }>({ path: '/team' });
    return (data.teams ?? []).map(byId);
  },
  listSpaces: inside('workspaceId', (id) => `/team/${id}/space`, 'spaces'),
  listFolders: inside('spaceId', (id) => `/space/${id}/folder`, 'folders'),
  // The lists of a folder, or those of the space outside any folder.
  listLists: async (ctx: DraftContext) =>
    chosen(ctx, 'folderId')
      ? inside('folderId', (id) => `/folder/${id}/list`, 'lists')(ctx)
      : inside('spaceId', (id) => `/space/${id}/list`, 'lists')(ctx),
  listAssignees: inside(
    'listId',
    (id) => `/list/${id}/member`,
    'members',
    (member) => ({
      name: member.username ?? String(member.id),
      value: member.id ?? '',
    }),
  ),
  listStatuses: inside('listId', (id) => `/list/${id}`, 'statuses', byName('status')),
  listTags: inside('spaceId', (id) => `/space/${id}/tag`, 'tags', byName('name')),
  async listTasks(ctx: DraftContext) {
    const list = chosen(ctx, 'listId');
    if (!list) return [];
    const tasks = await paginate<Entry>(
      ctx.http,
      { path: `/list/${segment(list)}/task`, query: { order_by: 'created', reverse: true } },
      { kind: 'page', items: 'tasks', param: 'page', first: 0, hasMore: (data) => data.last_page === false },
    );
    return tasks.map(byId);
  },
};
