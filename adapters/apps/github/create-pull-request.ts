import { boolean, dynamicDropdown, restAction, text } from '../sdk/index.js';
import { repoArgument, repoPath } from './repo.js';

const branch = (label: string, description: string) =>
  dynamicDropdown({
    label,
    description,
    required: true,
    dynamicData: 'listBranches',
    dependsOn: ['repo'],
    acceptsVariables: true,
  });

export const createPullRequest = restAction({
  key: 'createPullRequest',
  name: 'Create pull request',
  description: 'Opens a pull request from one branch into another.',
  arguments: {
    repo: repoArgument(true),
    title: text({ label: 'Title', required: true, acceptsVariables: true }),
    head: branch('Head branch', 'The branch with the changes (`owner:branch` for a fork).'),
    base: branch('Base branch', 'The branch the changes go into.'),
    body: text({ label: 'Body', acceptsVariables: true }),
    draft: boolean({ label: 'Draft', default: false }),
  },
  request: ({ repo, title, head, base, body, draft }) => ({
    method: 'POST',
    path: `${repoPath(repo)}/pulls`,
    body: { title, head, base, body, draft },
  }),
});
