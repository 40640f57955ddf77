import { type DraftContext, type DynamicOption, paginate } from '../sdk/index.js';
import { draftRepo, repoPath } from './repo.js';

/** Every page of a GitHub list (Link headers), as dropdown options. */
const options = async <T>(
  ctx: DraftContext,
  path: string,
  option: (item: T) => DynamicOption,
  query: Readonly<Record<string, string>> = {},
) => {
  const items = await paginate<T>(
    ctx.http,
    { path, query: { ...query, per_page: 100 } },
    { kind: 'link', items: (data) => (Array.isArray(data) ? data : []) },
  );
  return items.map(option);
};

const named = (item: { name: string }) => ({ name: item.name, value: item.name });

/** The repositories the connected account may use, most recently updated first. */
export const listRepos = (ctx: DraftContext) =>
  options(ctx, '/user/repos', (repo: { full_name: string }) => ({ name: repo.full_name, value: repo.full_name }), {
    sort: 'updated',
  });

/** The labels of the repository chosen in the step. */
export const listLabels = async (ctx: DraftContext) => {
  const repo = draftRepo(ctx.parameters);
  return repo ? options(ctx, `${repoPath(repo)}/labels`, named) : [];
};

/** The branches of the repository chosen in the step. */
export const listBranches = async (ctx: DraftContext) => {
  const repo = draftRepo(ctx.parameters);
  return repo ? options(ctx, `${repoPath(repo)}/branches`, named) : [];
};
