import { restAction, segment, text } from '../sdk/index.js';
import {
  asId,
  groupArgument,
  priorityArgument,
  publicArgument,
  statusArgument,
  tagsArgument,
  tagsOf,
  ticketArgument,
  typeArgument,
  userArgument,
} from './arguments.js';

export const updateTicket = restAction({
  key: 'updateTicket',
  name: 'Update ticket',
  description: 'Changes a ticket, or adds a comment to it; what is left empty stays as it is.',
  arguments: {
    ticketId: ticketArgument('The ticket to change.'),
    subject: text({ label: 'Subject', acceptsVariables: true }),
    assigneeId: userArgument('Assignee'),
    groupId: groupArgument(),
    status: statusArgument('New status'),
    comment: text({ label: 'New comment', acceptsVariables: true }),
    publicOrNot: publicArgument('Should the comment be public?'),
    tags: tagsArgument(),
    type: typeArgument(),
    priority: priorityArgument(),
    submitterId: userArgument('Submitter'),
  },
  request: (p) => ({
    method: 'PUT',
    path: `/tickets/${segment(p.ticketId)}`,
    body: {
      ticket: {
        subject: p.subject,
        assignee_id: asId(p.assigneeId),
        group_id: asId(p.groupId),
        status: p.status,
        comment: p.comment === undefined ? undefined : { body: p.comment, public: p.publicOrNot !== 'no' },
        tags: tagsOf(p.tags),
        type: p.type,
        priority: p.priority,
        submitter_id: asId(p.submitterId),
      },
    },
  }),
});
