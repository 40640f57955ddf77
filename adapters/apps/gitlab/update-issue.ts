import { dropdown, restAction, text } from '../sdk/index.js';
import { issueIidArgument } from './issue-iid.js';
import { projectArgument, projectPath } from './project.js';

export const updateIssue = restAction({
  key: 'updateIssue',
  name: 'Update issue',
  description: 'Changes an issue, closes or reopens it, or adds labels.',
  arguments: {
    projectId: projectArgument(),
    issueIid: issueIidArgument(),
    title: text({ label: 'New title', acceptsVariables: true }),
    description: text({ label: 'New description', acceptsVariables: true }),
    stateEvent: dropdown({
      label: 'Close or reopen',
      options: [
        { label: 'Close', value: 'close' },
        { label: 'Reopen', value: 'reopen' },
      ],
    }),
    addLabels: text({ label: 'Labels to add', description: 'Comma-separated.', acceptsVariables: true }),
  },
  // GitLab keeps what is not sent.
  request: ({ projectId, issueIid, title, description, stateEvent, addLabels }) => ({
    method: 'PUT',
    path: `${projectPath(projectId)}/issues/${issueIid}`,
    body: { title, description, state_event: stateEvent, add_labels: addLabels },
  }),
});
