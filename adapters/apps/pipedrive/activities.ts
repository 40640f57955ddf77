import { dynamicDropdown, restAction, text } from '../sdk/index.js';
import { dataOf, toId } from './api.js';
import { dealId, noYes, organizationId, personId, user } from './choices.js';

export const createActivity = restAction({
  key: 'createActivity',
  name: 'Create activity',
  description: 'Creates an activity (a call, meeting, task...) and returns it.',
  arguments: {
    subject: text({ label: 'Subject', required: true, acceptsVariables: true }),
    organizationId,
    userId: user('Assigned to'),
    personId,
    dealId,
    isDone: noYes('Is done?'),
    type: dynamicDropdown({ label: 'Type', dynamicData: 'listActivityTypes', acceptsVariables: true }),
    dueDate: text({ label: 'Due date', description: 'Format must be YYYY-MM-DD', acceptsVariables: true }),
    dueTime: text({ label: 'Due time', description: 'Format must be HH:MM (UTC)', acceptsVariables: true }),
    duration: text({ label: 'Duration', description: 'Format must be HH:MM', acceptsVariables: true }),
    note: text({ label: 'Note', description: 'Accepts HTML format', acceptsVariables: true }),
  },
  // API v2: ids are numbers, `done` a boolean, the person a participant.
  request: (p) => ({
    method: 'POST',
    path: '/api/v2/activities',
    body: {
      subject: p.subject,
      type: p.type,
      owner_id: toId(p.userId),
      org_id: toId(p.organizationId),
      deal_id: toId(p.dealId),
      ...(p.personId !== undefined && { participants: [{ person_id: Number(p.personId), primary: true }] }),
      ...(p.isDone !== undefined && { done: p.isDone === 1 }),
      due_date: p.dueDate,
      due_time: p.dueTime,
      duration: p.duration,
      note: p.note,
    },
  }),
  output: dataOf,
});
