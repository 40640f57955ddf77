import type { DraftContext } from '../sdk/index.js';
import { allNodes, type Connection } from './graphql.js';

interface Named {
  readonly id: string;
  readonly name: string;
}

/** Every `{ id name }` of a top-level connection, narrowed by a filter of its GraphQL type. */
const named = async (ctx: DraftContext, field: string, filter?: { type: string; value: unknown }) => {
  const query = filter
    ? `query($after: String, $filter: ${filter.type}) { ${field}(first: 100, after: $after, filter: $filter) { nodes { id name } pageInfo { hasNextPage endCursor } } }`
    : `query($after: String) { ${field}(first: 100, after: $after) { nodes { id name } pageInfo { hasNextPage endCursor } } }`;
  const nodes = await allNodes(
    ctx,
    query,
    filter ? { filter: filter.value } : {},
    (data: Record<string, Connection<Named>>) => data[field] ?? { nodes: [], pageInfo: { hasNextPage: false } },
  );
  return nodes.map((node) => ({ name: node.name, value: node.id }));
};

const chosenTeam = (ctx: DraftContext) => {
  const value = ctx.parameters.teamId;
  return typeof value === 'string' && value !== '' ? value : null;
};

/** The workspace's teams. */
export const listTeams = (ctx: DraftContext) => named(ctx, 'teams');

/** The workspace's active members (assignees). */
export const listUsers = (ctx: DraftContext) =>
  named(ctx, 'users', { type: 'UserFilter', value: { active: { eq: true } } });

/** The chosen team's workflow states (Backlog, Todo, In Progress, Done...). */
export const listWorkflowStates = async (ctx: DraftContext) => {
  const team = chosenTeam(ctx);
  return team
    ? named(ctx, 'workflowStates', { type: 'WorkflowStateFilter', value: { team: { id: { eq: team } } } })
    : [];
};

/** The labels the chosen team can use (its own and the workspace's). */
export const listLabels = async (ctx: DraftContext) => {
  const team = chosenTeam(ctx);
  if (!team) return [];
  const value = { or: [{ team: { id: { eq: team } } }, { team: { null: true } }] };
  return named(ctx, 'issueLabels', { type: 'IssueLabelFilter', value });
};
