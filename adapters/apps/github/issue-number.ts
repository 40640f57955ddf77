import { number } from '../sdk/index.js';

/** Issues and pull requests share their numbers in a repository. */
export const issueNumberArgument = () =>
  number({ label: 'Issue number', required: true, integer: true, min: 1, acceptsVariables: true });
