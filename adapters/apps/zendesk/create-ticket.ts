import { dropdown, dynamicDropdown, restAction, text } from '../sdk/index.js';
import {
  asId,
  groupArgument,
  priorityArgument,
  publicArgument,
  rowsOf,
  statusArgument,
  tagsArgument,
  tagsOf,
  typeArgument,
  userArgument,
} from './arguments.js';

export const createTicket = restAction({
  key: 'createTicket',
  name: 'Create ticket',
  description: 'Creates a ticket with its first comment.',
  arguments: {
    subject: text({ label: 'Subject', required: true, acceptsVariables: true }),
    assigneeId: userArgument('Assignee', 'The assignee must belong to the group, when one is chosen.'),
    collaborators: rowsOf('Collaborators', 'collaborator', 'Agents to copy, by id.'),
    collaboratorEmails: rowsOf('Collaborator emails', 'collaboratorEmail', 'People to copy who are not Zendesk users.'),
    groupId: groupArgument(),
    requesterName: text({ label: 'Requester name', description: 'With the requester email.', acceptsVariables: true }),
    requesterEmail: text({ label: 'Requester email', description: 'With the requester name.', acceptsVariables: true }),
    format: dropdown({
      label: 'First comment format',
      acceptsVariables: true,
      options: [
        { label: 'Plain Text', value: 'Plain Text' },
        { label: 'HTML', value: 'HTML' },
      ],
    }),
    comment: text({ label: 'First comment (description)', required: true, acceptsVariables: true }),
    publicOrNot: publicArgument('Should the first comment be public?'),
    tags: tagsArgument(),
    status: statusArgument('Status'),
    type: typeArgument(),
    dueAt: text({ label: 'Due at', description: 'For tasks: an ISO 8601 date and time.', acceptsVariables: true }),
    priority: priorityArgument(),
    submitterId: userArgument('Submitter'),
    ticketForm: dynamicDropdown({ label: 'Ticket form', dynamicData: 'listTicketForms', acceptsVariables: true }),
    sharingAgreements: rowsOf('Sharing agreements', 'sharingAgreement', 'Sharing agreement ids.'),
    brandId: dynamicDropdown({ label: 'Brand', dynamicData: 'listBrands', acceptsVariables: true }),
  },
  // Zendesk creates one ticket per key: a retried step does not open a second one.
  idempotencyHeader: 'Idempotency-Key',
  request: (p) => {
    const collaborators = [...(p.collaborators ?? []).map((id) => asId(id)), ...(p.collaboratorEmails ?? [])];
    return {
      method: 'POST',
      path: '/tickets',
      body: {
        ticket: {
          subject: p.subject,
          comment: { [p.format === 'HTML' ? 'html_body' : 'body']: p.comment, public: p.publicOrNot !== 'no' },
          requester:
            p.requesterName && p.requesterEmail ? { name: p.requesterName, email: p.requesterEmail } : undefined,
          assignee_id: asId(p.assigneeId),
          collaborators: collaborators.length > 0 ? collaborators : undefined,
          group_id: asId(p.groupId),
          tags: tagsOf(p.tags),
          status: p.status,
          type: p.type,
          due_at: p.dueAt,
          priority: p.priority,
          submitter_id: asId(p.submitterId),
          ticket_form_id: asId(p.ticketForm),
          sharing_agreement_ids: p.sharingAgreements?.length ? p.sharingAgreements.map((id) => asId(id)) : undefined,
          brand_id: asId(p.brandId),
        },
      },
    };
  },
});
