import { dropdown, dynamicDropdown, restAction, text } from '../sdk/index.js';
import { dataOf, numericId, toId } from './api.js';
import { currency, decimal, organizationId, personId, userId } from './choices.js';

/** `2026-11-01 12:00:00` (Automatisch's format, UTC) as RFC 3339, which API v2 takes. */
const rfc3339 = (value: string | undefined) =>
  value !== undefined && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(value) ? `${value.replace(' ', 'T')}Z` : value;

export const createDeal = restAction({
  key: 'createDeal',
  name: 'Create deal',
  description: 'Creates a deal and returns it.',
  arguments: {
    title: text({ label: 'Title', required: true, acceptsVariables: true }),
    addTime: text({
      label: 'Creation date',
      description: 'Requires admin access to the Pipedrive account. Format: YYYY-MM-DD HH:MM:SS (UTC).',
      acceptsVariables: true,
    }),
    status: dropdown({
      label: 'Status',
      options: [
        { label: 'Open', value: 'open' },
        { label: 'Won', value: 'won' },
        { label: 'Lost', value: 'lost' },
        { label: 'Deleted', value: 'deleted' },
      ],
    }),
    lostReason: text({ label: 'Lost reason', acceptsVariables: true }),
    stageId: dynamicDropdown({
      label: 'Stage',
      dynamicData: 'listStages',
      description: 'When empty, the first stage of the default pipeline.',
      acceptsVariables: true,
      check: numericId,
    }),
    userId,
    organizationId,
    personId,
    probability: text({
      label: 'Probability',
      description: 'The success probability, in percent.',
      acceptsVariables: true,
      check: decimal,
    }),
    expectedCloseDate: text({ label: 'Expected close date', description: 'YYYY-MM-DD.', acceptsVariables: true }),
    value: text({ label: 'Value', description: 'When empty, 0.', acceptsVariables: true, check: decimal }),
    currency,
  },
  request: (p) => ({
    method: 'POST',
    path: '/api/v2/deals',
    body: {
      title: p.title,
      add_time: rfc3339(p.addTime),
      // API v2 marks a deleted deal with a flag, not a status.
      ...(p.status === 'deleted' ? { is_deleted: true } : { status: p.status }),
      lost_reason: p.lostReason,
      stage_id: toId(p.stageId),
      owner_id: toId(p.userId),
      org_id: toId(p.organizationId),
      person_id: toId(p.personId),
      probability: p.probability === undefined ? undefined : Number(p.probability),
      expected_close_date: p.expectedCloseDate,
      value: p.value === undefined ? undefined : Number(p.value),
      currency: p.currency,
    },
  }),
  output: dataOf,
});
