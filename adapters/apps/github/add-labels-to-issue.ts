import { dynamicMultiSelect, restAction } from '../sdk/index.js';
import { issueNumberArgument } from './issue-number.js';
import { repoArgument, repoPath } from './repo.js';

export const addLabelsToIssue = restAction({
  key: 'addLabelsToIssue',
  name: 'Add labels to issue',
  description: 'Adds labels to an issue or a pull request, keeping those it has.',
  arguments: {
    repo: repoArgument(true),
    issueNumber: issueNumberArgument(),
    labels: dynamicMultiSelect({ label: 'Labels', required: true, dynamicData: 'listLabels', dependsOn: ['repo'] }),
  },
  request: ({ repo, issueNumber, labels }) => ({
    method: 'POST',
    path: `${repoPath(repo)}/issues/${issueNumber}/labels`,
    body: { labels },
  }),
  // GitHub answers every label the issue now has.
  output: (labels: unknown) => ({ labels }),
});
