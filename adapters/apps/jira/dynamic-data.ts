import { type DraftContext, type Pagination, paginate, segment } from '../sdk/index.js';

/** Jira's offset pages: `startAt`; a page may hold fewer than asked and still not be the last. */
const PAGE = 50;

interface Page {
  readonly startAt: number;
  readonly total?: number;
  readonly isLast?: boolean;
}

/** The next `startAt` from what the page says of itself (`isLast`, or `total`). */
const pagesOf = (items: string): Pagination => ({
  kind: 'cursor',
  items,
  param: 'startAt',
  next: (data: Page & Record<string, unknown>) => {
    const count = (data[items] as unknown[] | undefined)?.length ?? 0;
    const end = data.startAt + count;
    const last = data.isLast ?? (data.total === undefined || end >= data.total);
    return last || count === 0 ? null : end;
  },
});

const draft = (ctx: DraftContext, key: string) => {
  const value = ctx.parameters[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
};

/** The projects the account can see. */
export const listProjects = async (ctx: DraftContext) => {
  const projects = await paginate<{ key: string; name: string }>(
    ctx.http,
    { path: '/project/search', query: { maxResults: PAGE, orderBy: 'name' } },
    pagesOf('values'),
  );
  return projects.map((project) => ({ name: `${project.name} (${project.key})`, value: project.key }));
};

/** The issue types the chosen project can create. */
export const listIssueTypes = async (ctx: DraftContext) => {
  const project = draft(ctx, 'projectKey');
  if (!project) return [];
  const types = await paginate<{ id: string; name: string }>(
    ctx.http,
    { path: `/issue/createmeta/${segment(project)}/issuetypes`, query: { maxResults: PAGE } },
    pagesOf('issueTypes'),
  );
  return types.map((type) => ({ name: type.name, value: type.id }));
};

/** The users an issue of the chosen project can be assigned to. */
export const listAssignableUsers = async (ctx: DraftContext) => {
  const project = draft(ctx, 'projectKey');
  if (!project) return [];
  const users = await paginate<{ accountId: string; displayName: string }>(
    ctx.http,
    { path: '/user/assignable/search', query: { project, maxResults: PAGE } },
    // A plain list: it ends with a short page.
    { kind: 'offset', items: '', param: 'startAt', pageSize: PAGE },
  );
  return users.map((user) => ({ name: user.displayName, value: user.accountId }));
};

/** The transitions the chosen issue can take now (Jira answers them all at once). */
export const listTransitions = async (ctx: DraftContext) => {
  const issue = draft(ctx, 'issueKey');
  if (!issue) return [];
  const { data } = await ctx.http.request<{ transitions: { id: string; name: string; to?: { name?: string } }[] }>({
    path: `/issue/${segment(issue)}/transitions`,
  });
  return data.transitions.map((t) => ({ name: t.to?.name ? `${t.name} → ${t.to.name}` : t.name, value: t.id }));
};
