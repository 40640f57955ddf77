import { dynamicDropdown, pollingTrigger } from '../sdk/index.js';
import { projectArgument, projectPath } from './project.js';

export const newCommits = pollingTrigger({
  key: 'newCommits',
  name: 'New commits',
  description: 'Starts the flow for each commit pushed to a branch.',
  arguments: {
    projectId: projectArgument(false),
    branch: dynamicDropdown({
      label: 'Branch',
      description: "The project's default branch when empty.",
      dynamicData: 'listBranches',
      dependsOn: ['projectId'],
    }),
  },
  // GitLab lists a branch's commits newest first.
  request: ({ projectId, branch }) => ({
    path: `${projectPath(projectId)}/repository/commits`,
    query: { ref_name: branch, per_page: 100 },
  }),
  items: '',
  id: (commit: { id: string }) => commit.id,
  since: { param: 'since', value: (commit: { committed_date: string }) => commit.committed_date },
});
