import { defineAction, text } from '../sdk/index.js';
import { assigneeArgument, labelsArgument, priorityArgument, stateArgument, teamArgument } from './arguments.js';
import { given, issueMutation } from './issue-mutations.js';

export const createIssue = defineAction({
  key: 'createIssue',
  name: 'Create issue',
  description: 'Creates an issue in a team.',
  arguments: {
    teamId: teamArgument(true),
    title: text({ label: 'Title', required: true, acceptsVariables: true }),
    description: text({ label: 'Description', description: 'Markdown.', acceptsVariables: true }),
    stateId: stateArgument(),
    assigneeId: assigneeArgument(),
    priority: priorityArgument(),
    labelIds: labelsArgument(),
  },
  run: (ctx) => {
    const { teamId, title, description, stateId, assigneeId, priority, labelIds } = ctx.parameters;
    const labels = labelIds && labelIds.length > 0 ? labelIds : undefined;
    return issueMutation(ctx, 'issueCreate', {
      input: given({ teamId, title, description, stateId, assigneeId, priority, labelIds: labels }),
    });
  },
});
