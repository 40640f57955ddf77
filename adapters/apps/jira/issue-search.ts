import { dynamicDropdown, text } from '../sdk/index.js';
import { jqlString, projectArgument } from './arguments.js';

/** What both issue triggers filter by: a project, an issue type, and any further JQL. */
export const searchArguments = () => ({
  projectKey: projectArgument(),
  issueTypeId: dynamicDropdown({
    label: 'Issue type',
    description: 'Any type when empty.',
    dynamicData: 'listIssueTypes',
    dependsOn: ['projectKey'],
  }),
  jql: text({ label: 'More JQL', description: 'Further conditions, as `priority = High AND labels = api`.' }),
});

/**
 * One page of the project's issues, newest first by `field`, through the enhanced JQL search
 * (`/search/jql`, which answers ids only unless asked for fields).
 */
export const searchRequest = (
  p: { projectKey: string; issueTypeId?: string | undefined; jql?: string | undefined },
  field: 'created' | 'updated',
) => {
  const conditions = [
    `project = ${jqlString(p.projectKey)}`,
    ...(p.issueTypeId ? [`issuetype = ${jqlString(p.issueTypeId)}`] : []),
    ...(p.jql?.trim() ? [`(${p.jql.trim()})`] : []),
  ];
  return {
    path: '/search/jql',
    query: { jql: `${conditions.join(' AND ')} ORDER BY ${field} DESC`, fields: '*navigable', maxResults: 100 },
  };
};
