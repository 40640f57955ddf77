import { type DraftContext, type Pagination, paginate } from '../sdk/index.js';

type Named = { id: string; name: string };

/** Todoist API v1 lists: `{ results, next_cursor }`, 200 entries a page at most. */
export const byCursor: Pagination = { kind: 'cursor', items: 'results', next: 'next_cursor', param: 'cursor' };

const list = (ctx: DraftContext, path: string, query: Record<string, string> = {}) =>
  paginate<Named>(ctx.http, { path, query: { ...query, limit: 200 } }, byCursor);

export const todoistDynamicData = {
  listProjects: async (ctx: DraftContext) =>
    (await list(ctx, '/projects')).map((project) => ({ name: project.name, value: project.id })),

  async listSections(ctx: DraftContext) {
    const project = ctx.parameters.projectId;
    if (typeof project !== 'string' || project === '') return [];
    const sections = await list(ctx, '/sections', { project_id: project });
    return sections.map((section) => ({ name: section.name, value: section.id }));
  },

  // Tasks name their labels, so a label's value is its name (as in Automatisch).
  listLabels: async (ctx: DraftContext) =>
    (await list(ctx, '/labels')).map((label) => ({ name: label.name, value: label.name })),
};
