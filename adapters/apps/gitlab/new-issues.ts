import { pollingTrigger, text } from '../sdk/index.js';
import { projectArgument, projectPath } from './project.js';

export const newIssues = pollingTrigger({
  key: 'newIssues',
  name: 'New issues',
  description: 'Starts the flow for each issue opened in a project.',
  arguments: {
    projectId: projectArgument(false),
    labels: text({ label: 'Labels', description: 'Only issues with all of these labels (comma-separated).' }),
  },
  request: ({ projectId, labels }) => ({
    path: `${projectPath(projectId)}/issues`,
    query: { order_by: 'created_at', sort: 'desc', per_page: 100, labels },
  }),
  items: '',
  id: (issue: { id: number }) => issue.id,
  since: { param: 'created_after', value: (issue: { created_at: string }) => issue.created_at },
});
