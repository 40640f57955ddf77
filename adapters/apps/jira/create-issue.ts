import { dynamicDropdown, restAction, text } from '../sdk/index.js';
import { adf } from './adf.js';
import { labelsOf, projectArgument } from './arguments.js';

export const createIssue = restAction({
  key: 'createIssue',
  name: 'Create issue',
  description: 'Creates an issue in a project.',
  arguments: {
    projectKey: projectArgument(),
    issueTypeId: dynamicDropdown({
      label: 'Issue type',
      required: true,
      dynamicData: 'listIssueTypes',
      dependsOn: ['projectKey'],
    }),
    summary: text({ label: 'Summary', required: true, acceptsVariables: true }),
    description: text({ label: 'Description', description: 'Plain text.', acceptsVariables: true }),
    labels: text({ label: 'Labels', description: 'Comma-separated, without spaces.', acceptsVariables: true }),
    assigneeId: dynamicDropdown({
      label: 'Assignee',
      dynamicData: 'listAssignableUsers',
      dependsOn: ['projectKey'],
      acceptsVariables: true,
    }),
  },
  request: (p) => ({
    method: 'POST',
    path: '/issue',
    body: {
      fields: {
        project: { key: p.projectKey },
        issuetype: { id: p.issueTypeId },
        summary: p.summary,
        description: p.description === undefined ? undefined : adf(p.description),
        labels: labelsOf(p.labels),
        assignee: p.assigneeId === undefined ? undefined : { accountId: p.assigneeId },
      },
    },
  }),
});
