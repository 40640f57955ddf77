import type { DraftContext } from '../sdk/index.js';
import { type Compact, listAll } from './api.js';

const options = (entries: readonly { gid: string; name?: string }[]) =>
  entries.map((entry) => ({ name: entry.name ?? entry.gid, value: entry.gid }));

/** Lists that need a choice made first (a workspace, a project) answer nothing until then. */
const within =
  (parameter: 'workspaceId' | 'projectId', list: (ctx: DraftContext, gid: string) => Promise<Compact[]>) =>
  async (ctx: DraftContext) => {
    const gid = ctx.parameters[parameter];
    return typeof gid === 'string' && gid !== '' ? options(await list(ctx, gid)) : [];
  };

/** Automatisch's keys; the paths are those Asana documents. */
export const asanaDynamicData = {
  listWorkspaces: async (ctx: DraftContext) => options(await listAll(ctx.http, '/workspaces')),
  listProjects: within('workspaceId', (ctx, gid) =>
    listAll(ctx.http, '/projects', { workspace: gid, archived: 'false' }),
  ),
  listSections: within('projectId', (ctx, gid) => listAll(ctx.http, `/projects/${encodeURIComponent(gid)}/sections`)),
  listTags: within('workspaceId', (ctx, gid) => listAll(ctx.http, '/tags', { workspace: gid })),
  listTeams: within('workspaceId', (ctx, gid) => listAll(ctx.http, `/workspaces/${encodeURIComponent(gid)}/teams`)),
  listUsers: within('workspaceId', (ctx, gid) => listAll(ctx.http, '/users', { workspace: gid })),
};
