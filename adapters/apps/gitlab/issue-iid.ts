import { number } from '../sdk/index.js';

/** GitLab names an issue in its project by its `iid`, the number shown as `#12`. */
export const issueIidArgument = () =>
  number({
    label: 'Issue number',
    description: 'The number shown as #12 in the project (its iid).',
    required: true,
    integer: true,
    min: 1,
    acceptsVariables: true,
  });
