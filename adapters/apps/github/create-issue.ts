import { defineAction, dynamicDropdown, matches, text } from '../sdk/index.js';

export const createIssue = defineAction({
  key: 'createIssue',
  name: 'Create issue',
  description: 'Opens an issue in a repository.',
  arguments: {
    repo: dynamicDropdown({
      label: 'Repository',
      required: true,
      dynamicData: 'listRepos',
      placeholder: 'owner/name',
      acceptsVariables: true,
      check: matches(/^[\w.-]+\/[\w.-]+$/, 'must be owner/name.'),
    }),
    title: text({ label: 'Title', required: true, acceptsVariables: true }),
    body: text({ label: 'Body', acceptsVariables: true }),
  },
  async run(ctx) {
    const { repo, title, body } = ctx.parameters;
    const [owner = '', name = ''] = repo.split('/');
    const { data } = await ctx.http.request({
      method: 'POST',
      path: `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/issues`,
      body: { title, ...(body !== undefined && { body }) },
    });
    return data;
  },
});
