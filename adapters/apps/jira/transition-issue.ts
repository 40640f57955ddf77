import { dynamicDropdown, restAction, segment, text } from '../sdk/index.js';
import { adf } from './adf.js';
import { issueKeyArgument } from './arguments.js';

export const transitionIssue = restAction({
  key: 'transitionIssue',
  name: 'Move issue',
  description: 'Moves an issue through its workflow (to In Progress, Done...), with an optional comment.',
  arguments: {
    issueKey: issueKeyArgument(),
    transitionId: dynamicDropdown({
      label: 'Transition',
      required: true,
      dynamicData: 'listTransitions',
      dependsOn: ['issueKey'],
      acceptsVariables: true,
    }),
    comment: text({ label: 'Comment', acceptsVariables: true }),
  },
  request: ({ issueKey, transitionId, comment }) => ({
    method: 'POST',
    path: `/issue/${segment(issueKey)}/transitions`,
    body: {
      transition: { id: transitionId },
      update: comment === undefined ? undefined : { comment: [{ add: { body: adf(comment) } }] },
    },
  }),
  // Jira answers 204 with no body.
  output: (_data, { issueKey, transitionId }) => ({ issueKey, transitionId }),
});
