import type { DraftContext } from '../sdk/index.js';
import { defineApp } from '../sdk/index.js';
import { GITHUB_API, githubAuth } from './auth.js';
import { createIssue } from './create-issue.js';
import { icon } from './icon.js';

const listRepos = async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<{ full_name: string }[]>({
    path: '/user/repos',
    query: { per_page: 100, sort: 'updated' },
  });
  return data.map((repo) => ({ name: repo.full_name, value: repo.full_name }));
};

export const github = defineApp({
  key: 'github',
  name: 'GitHub',
  description: 'Work with issues and repositories on GitHub.',
  icon,
  primaryColor: '#000000',
  version: 1,
  auth: githubAuth,
  triggers: [],
  actions: [createIssue],
  dynamicData: { listRepos },
  http: {
    baseUrl: (auth) => (auth.client ? githubAuth.readClient(auth.client).apiBaseUrl : GITHUB_API),
    headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
  },
});
