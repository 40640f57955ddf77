import { defineAction, text } from '../sdk/index.js';
import { assigneeArgument, issueIdArgument, priorityArgument, stateArgument, teamArgument } from './arguments.js';
import { given, issueMutation } from './issue-mutations.js';

export const updateIssue = defineAction({
  key: 'updateIssue',
  name: 'Update issue',
  description: "Changes an issue's title, description, status, assignee or priority; what is left empty stays.",
  arguments: {
    issueId: issueIdArgument(),
    teamId: teamArgument(false),
    title: text({ label: 'New title', acceptsVariables: true }),
    description: text({ label: 'New description', description: 'Markdown.', acceptsVariables: true }),
    stateId: stateArgument(),
    assigneeId: assigneeArgument(),
    priority: priorityArgument(),
  },
  run: (ctx) => {
    const { issueId, teamId, title, description, stateId, assigneeId, priority } = ctx.parameters;
    return issueMutation(ctx, 'issueUpdate', {
      id: issueId,
      input: given({ teamId, title, description, stateId, assigneeId, priority }),
    });
  },
});
