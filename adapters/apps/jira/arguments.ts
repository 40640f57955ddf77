import { dynamicDropdown, matches, text } from '../sdk/index.js';

/** A project, by key (`PROJ`). */
export const projectArgument = () =>
  dynamicDropdown({ label: 'Project', required: true, dynamicData: 'listProjects', placeholder: 'PROJ' });

/** An issue, by key (`PROJ-12`) or id. */
export const issueKeyArgument = () =>
  text({
    label: 'Issue key',
    required: true,
    placeholder: 'PROJ-12',
    acceptsVariables: true,
    check: matches(/^([A-Za-z][A-Za-z0-9_]*-\d+|\d+)$/, 'must be an issue key (PROJ-12) or id.'),
  });

/** Comma-separated labels; Jira's labels hold no spaces. */
export const labelsOf = (text: string | undefined): string[] | undefined =>
  text === undefined
    ? undefined
    : text
        .split(',')
        .map((label) => label.trim())
        .filter((label) => label !== '');

/** A JQL string value, quoted. */
export const jqlString = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;
