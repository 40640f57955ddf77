import { boolean, dynamicDropdown, restAction, text } from '../sdk/index.js';
import { projectArgument, projectPath } from './project.js';

const branch = (label: string) =>
  dynamicDropdown({
    label,
    required: true,
    dynamicData: 'listBranches',
    dependsOn: ['projectId'],
    acceptsVariables: true,
  });

export const createMergeRequest = restAction({
  key: 'createMergeRequest',
  name: 'Create merge request',
  description: 'Opens a merge request from one branch into another.',
  arguments: {
    projectId: projectArgument(),
    sourceBranch: branch('Source branch'),
    targetBranch: branch('Target branch'),
    title: text({ label: 'Title', required: true, acceptsVariables: true }),
    description: text({ label: 'Description', acceptsVariables: true }),
    removeSourceBranch: boolean({ label: 'Delete the source branch once merged', default: false }),
  },
  request: (p) => ({
    method: 'POST',
    path: `${projectPath(p.projectId)}/merge_requests`,
    body: {
      source_branch: p.sourceBranch,
      target_branch: p.targetBranch,
      title: p.title,
      description: p.description,
      remove_source_branch: p.removeSourceBranch,
    },
  }),
});
