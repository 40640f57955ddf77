import { type DraftContext, type Pagination, paginate } from '../sdk/index.js';
import { draftProject, projectPath } from './project.js';

/** GitLab's offset and keyset pagination both give the next page in a Link header. */
const LINKED: Pagination = { kind: 'link', items: (data) => (Array.isArray(data) ? data : []) };

/** The projects the account is a member of (keyset pagination, as GitLab advises for long lists). */
export const listProjects = async (ctx: DraftContext) => {
  const query = { membership: true, simple: true, pagination: 'keyset', order_by: 'id', sort: 'asc', per_page: 100 };
  const projects = await paginate<{ id: number; path_with_namespace: string }>(
    ctx.http,
    { path: '/projects', query },
    LINKED,
  );
  return projects.map((project) => ({ name: project.path_with_namespace, value: String(project.id) }));
};

/** The branches of the chosen project. */
export const listBranches = async (ctx: DraftContext) => {
  const project = draftProject(ctx.parameters);
  if (!project) return [];
  const path = `${projectPath(project)}/repository/branches`;
  const branches = await paginate<{ name: string }>(ctx.http, { path, query: { per_page: 100 } }, LINKED);
  return branches.map((branch) => ({ name: branch.name, value: branch.name }));
};
