import { dynamicDropdown, restAction, text } from '../sdk/index.js';
import { dataOf, toId } from './api.js';
import { dealId, noYes, organizationId, personId } from './choices.js';

export const createNote = restAction({
  key: 'createNote',
  name: 'Create note',
  description: 'Adds a note to a deal, person, organization or lead, and returns it.',
  arguments: {
    content: text({
      label: 'Content',
      required: true,
      description: 'Supports some HTML formatting.',
      acceptsVariables: true,
    }),
    dealId,
    pinnedDeal: noYes('Pin note on specified deal?'),
    personId,
    pinnedPerson: noYes('Pin note on specified person?'),
    organizationId,
    pinnedOrganization: noYes('Pin note on specified organization?'),
    leadId: dynamicDropdown({ label: 'Lead', dynamicData: 'listLeads', acceptsVariables: true }),
    pinnedLead: noYes('Pin note on specified lead?'),
  },
  check: (p) =>
    [p.dealId, p.personId, p.organizationId, p.leadId].every((id) => id === undefined)
      ? { dealId: 'a note needs a deal, a person, an organization or a lead.' }
      : null,
  request: (p) => ({
    method: 'POST',
    path: '/v1/notes',
    body: {
      content: p.content,
      deal_id: toId(p.dealId),
      pinned_to_deal_flag: p.pinnedDeal,
      person_id: toId(p.personId),
      pinned_to_person_flag: p.pinnedPerson,
      org_id: toId(p.organizationId),
      pinned_to_organization_flag: p.pinnedOrganization,
      lead_id: p.leadId,
      pinned_to_lead_flag: p.pinnedLead,
    },
  }),
  output: dataOf,
});
