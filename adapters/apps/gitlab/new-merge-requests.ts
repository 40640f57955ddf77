import { dynamicDropdown, pollingTrigger } from '../sdk/index.js';
import { projectArgument, projectPath } from './project.js';

export const newMergeRequests = pollingTrigger({
  key: 'newMergeRequests',
  name: 'New merge requests',
  description: 'Starts the flow for each merge request opened in a project.',
  arguments: {
    projectId: projectArgument(false),
    targetBranch: dynamicDropdown({
      label: 'Target branch',
      description: 'Only merge requests into this branch.',
      dynamicData: 'listBranches',
      dependsOn: ['projectId'],
    }),
  },
  request: ({ projectId, targetBranch }) => ({
    path: `${projectPath(projectId)}/merge_requests`,
    query: { order_by: 'created_at', sort: 'desc', per_page: 100, target_branch: targetBranch },
  }),
  items: '',
  id: (request: { id: number }) => request.id,
  since: { param: 'created_after', value: (request: { created_at: string }) => request.created_at },
});
