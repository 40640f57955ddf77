import { boolean, restAction, text } from '../sdk/index.js';
import { projectArgument, projectPath } from './project.js';

export const createIssue = restAction({
  key: 'createIssue',
  name: 'Create issue',
  description: 'Opens an issue in a project.',
  arguments: {
    projectId: projectArgument(),
    title: text({ label: 'Title', required: true, acceptsVariables: true }),
    description: text({ label: 'Description', description: 'Markdown.', acceptsVariables: true }),
    labels: text({ label: 'Labels', description: 'Comma-separated; new ones are created.', acceptsVariables: true }),
    confidential: boolean({ label: 'Confidential', default: false }),
  },
  request: ({ projectId, title, description, labels, confidential }) => ({
    method: 'POST',
    path: `${projectPath(projectId)}/issues`,
    body: { title, description, labels, confidential },
  }),
});
