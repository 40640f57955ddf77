import { pollingTrigger } from '../sdk/index.js';
import { searchArguments, searchRequest } from './issue-search.js';

interface Issue {
  readonly id: string;
  readonly fields?: { readonly updated?: string };
}

export const updatedIssues = pollingTrigger({
  key: 'updatedIssues',
  name: 'Updated issues',
  description: 'Starts the flow each time an issue of a project changes (created ones included).',
  arguments: searchArguments(),
  request: (p) => searchRequest(p, 'updated'),
  items: 'issues',
  // Each change is an update time of its own.
  id: (issue: Issue) => `${issue.id}:${issue.fields?.updated ?? ''}`,
});
