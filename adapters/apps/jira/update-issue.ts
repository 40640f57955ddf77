import { restAction, segment, text } from '../sdk/index.js';
import { adf } from './adf.js';
import { issueKeyArgument, labelsOf } from './arguments.js';

export const updateIssue = restAction({
  key: 'updateIssue',
  name: 'Update issue',
  description: "Changes an issue's summary or description, or adds labels.",
  arguments: {
    issueKey: issueKeyArgument(),
    summary: text({ label: 'New summary', acceptsVariables: true }),
    description: text({ label: 'New description', description: 'Plain text.', acceptsVariables: true }),
    addLabels: text({ label: 'Labels to add', description: 'Comma-separated.', acceptsVariables: true }),
  },
  request: ({ issueKey, summary, description, addLabels }) => ({
    method: 'PUT',
    path: `/issue/${segment(issueKey)}`,
    // Without returnIssue, Jira answers 204 and nothing to map.
    query: { returnIssue: true },
    body: {
      fields: { summary, description: description === undefined ? undefined : adf(description) },
      update: { labels: labelsOf(addLabels)?.map((label) => ({ add: label })) },
    },
  }),
});
