import { restAction, text } from '../sdk/index.js';
import { issueIidArgument } from './issue-iid.js';
import { projectArgument, projectPath } from './project.js';

export const createIssueComment = restAction({
  key: 'createIssueComment',
  name: 'Comment on issue',
  description: 'Adds a comment (a note) to an issue.',
  arguments: {
    projectId: projectArgument(),
    issueIid: issueIidArgument(),
    body: text({ label: 'Comment', required: true, acceptsVariables: true }),
  },
  request: ({ projectId, issueIid, body }) => ({
    method: 'POST',
    path: `${projectPath(projectId)}/issues/${issueIid}/notes`,
    body: { body },
  }),
});
