import { restAction, segment, text } from '../sdk/index.js';
import { adf } from './adf.js';
import { issueKeyArgument } from './arguments.js';

export const createIssueComment = restAction({
  key: 'createIssueComment',
  name: 'Comment on issue',
  description: 'Adds a comment to an issue.',
  arguments: {
    issueKey: issueKeyArgument(),
    body: text({ label: 'Comment', required: true, description: 'Plain text.', acceptsVariables: true }),
  },
  request: ({ issueKey, body }) => ({
    method: 'POST',
    path: `/issue/${segment(issueKey)}/comment`,
    body: { body: adf(body) },
  }),
});
