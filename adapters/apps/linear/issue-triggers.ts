import { defineTrigger, type TriggerContext } from '../sdk/index.js';
import { teamArgument } from './arguments.js';
import { ISSUE_FIELDS, linearGraphql } from './graphql.js';

interface Issue {
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The 50 issues last created or updated (in a team, or the workspace), newest first. */
const latestIssues = async (ctx: TriggerContext<{ teamId?: string }>, field: 'createdAt' | 'updatedAt') => {
  const { issues } = await linearGraphql<{ issues: { nodes: Issue[] } }>(
    ctx,
    `query($filter: IssueFilter, $orderBy: PaginationOrderBy) {
      issues(first: 50, filter: $filter, orderBy: $orderBy) { nodes { ${ISSUE_FIELDS} } }
    }`,
    { orderBy: field, filter: ctx.parameters.teamId ? { team: { id: { eq: ctx.parameters.teamId } } } : null },
  );
  // Linear orders by the field, newest first; sorting again keeps that promise whatever it does.
  return [...issues.nodes].sort((a, b) => b[field].localeCompare(a[field]));
};

export const newIssues = defineTrigger({
  key: 'newIssues',
  name: 'New issues',
  description: 'Starts the flow for each issue created (in a team, or anywhere in the workspace).',
  type: 'polling',
  arguments: { teamId: teamArgument(false) },
  async run(ctx) {
    return (await latestIssues(ctx, 'createdAt')).map((issue) => ({ id: issue.id, data: issue }));
  },
});

export const updatedIssues = defineTrigger({
  key: 'updatedIssues',
  name: 'Updated issues',
  description: 'Starts the flow each time an issue changes (created ones included).',
  type: 'polling',
  arguments: { teamId: teamArgument(false) },
  async run(ctx) {
    const issues = await latestIssues(ctx, 'updatedAt');
    return issues.map((issue) => ({ id: `${issue.id}:${issue.updatedAt}`, data: issue }));
  },
});
