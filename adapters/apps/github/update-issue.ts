import { dropdown, restAction, text } from '../sdk/index.js';
import { issueNumberArgument } from './issue-number.js';
import { repoArgument, repoPath } from './repo.js';

export const updateIssue = restAction({
  key: 'updateIssue',
  name: 'Update issue',
  description: 'Changes the title or body of an issue, or closes or reopens it.',
  arguments: {
    repo: repoArgument(true),
    issueNumber: issueNumberArgument(),
    title: text({ label: 'New title', acceptsVariables: true }),
    body: text({ label: 'New body', acceptsVariables: true }),
    state: dropdown({
      label: 'State',
      options: [
        { label: 'Open', value: 'open' },
        { label: 'Closed', value: 'closed' },
      ],
    }),
    stateReason: dropdown({
      label: 'Reason for the state',
      description: 'Why the issue was closed or reopened.',
      options: [
        { label: 'Completed', value: 'completed' },
        { label: 'Not planned', value: 'not_planned' },
        { label: 'Reopened', value: 'reopened' },
      ],
    }),
  },
  // Only what was given is sent: GitHub keeps the rest as it is.
  request: ({ repo, issueNumber, title, body, state, stateReason }) => ({
    method: 'PATCH',
    path: `${repoPath(repo)}/issues/${issueNumber}`,
    body: { title, body, state, state_reason: stateReason },
  }),
});
