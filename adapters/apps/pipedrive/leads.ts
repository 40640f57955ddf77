import { dynamicMultiSelect, restAction, text } from '../sdk/index.js';
import { dataOf, toId } from './api.js';
import { currency, decimal, organizationId, personId, userId } from './choices.js';

export const createLead = restAction({
  key: 'createLead',
  name: 'Create lead',
  description: 'Creates a lead, for a person or an organization, and returns it.',
  arguments: {
    title: text({ label: 'Title', required: true, acceptsVariables: true }),
    personId,
    organizationId,
    ownerId: userId,
    labelIds: dynamicMultiSelect({ label: 'Lead labels', dynamicData: 'listLeadLabels' }),
    expectedCloseDate: text({ label: 'Expected close date', description: 'E.g. 2026-10-23', acceptsVariables: true }),
    value: text({ label: 'Lead value', description: 'E.g. 150', acceptsVariables: true, check: decimal }),
    currency,
  },
  check: (p): Readonly<Record<string, string>> | null =>
    p.personId === undefined && p.organizationId === undefined
      ? { personId: 'a lead needs a person or an organization.' }
      : p.value !== undefined && p.currency === undefined
        ? { currency: 'is required with a lead value.' }
        : null,
  request: (p) => ({
    method: 'POST',
    path: '/v1/leads',
    body: {
      title: p.title,
      person_id: toId(p.personId),
      organization_id: toId(p.organizationId),
      owner_id: toId(p.ownerId),
      label_ids: p.labelIds && p.labelIds.length > 0 ? p.labelIds : undefined,
      expected_close_date: p.expectedCloseDate,
      ...(p.value !== undefined && { value: { amount: Number(p.value), currency: p.currency } }),
    },
  }),
  output: dataOf,
});
