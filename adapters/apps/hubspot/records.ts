import { dynamicDropdown, restAction, text } from '../sdk/index.js';

export const createDeal = restAction({
  key: 'createDeal',
  name: 'Create deal',
  description: 'Creates a deal in a pipeline stage and returns it.',
  arguments: {
    dealName: text({ label: 'Deal name', required: true, acceptsVariables: true }),
    pipeline: dynamicDropdown({ label: 'Pipeline', required: true, dynamicData: 'listPipelines' }),
    dealStage: dynamicDropdown({
      label: 'Stage',
      required: true,
      dynamicData: 'listDealStages',
      dependsOn: ['pipeline'],
    }),
    amount: text({ label: 'Amount', acceptsVariables: true }),
    closeDate: text({ label: 'Close date', description: 'ISO 8601, e.g. 2026-12-31.', acceptsVariables: true }),
    hubspotOwnerId: dynamicDropdown({ label: 'Owner', dynamicData: 'listOwners', acceptsVariables: true }),
  },
  request: (p) => ({
    method: 'POST',
    path: '/crm/v3/objects/deals',
    body: {
      properties: {
        dealname: p.dealName,
        pipeline: p.pipeline,
        dealstage: p.dealStage,
        amount: p.amount,
        closedate: p.closeDate,
        hubspot_owner_id: p.hubspotOwnerId,
      },
    },
  }),
});

export const createCompany = restAction({
  key: 'createCompany',
  name: 'Create company',
  description: 'Creates a company and returns it.',
  arguments: {
    name: text({ label: 'Name', required: true, acceptsVariables: true }),
    domain: text({ label: 'Domain', placeholder: 'example.com', acceptsVariables: true }),
    phone: text({ label: 'Phone', acceptsVariables: true }),
    city: text({ label: 'City', acceptsVariables: true }),
    hubspotOwnerId: dynamicDropdown({ label: 'Owner', dynamicData: 'listOwners', acceptsVariables: true }),
  },
  request: (p) => ({
    method: 'POST',
    path: '/crm/v3/objects/companies',
    body: {
      properties: {
        name: p.name,
        domain: p.domain,
        phone: p.phone,
        city: p.city,
        hubspot_owner_id: p.hubspotOwnerId,
      },
    },
  }),
});
