import { pollingTrigger } from '../sdk/index.js';
import { searchArguments, searchRequest } from './issue-search.js';

export const newIssues = pollingTrigger({
  key: 'newIssues',
  name: 'New issues',
  description: 'Starts the flow for each issue created in a project.',
  arguments: searchArguments(),
  request: (p) => searchRequest(p, 'created'),
  items: 'issues',
  id: (issue: { id: string }) => issue.id,
});
