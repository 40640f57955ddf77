import { defineAction, dynamicDropdown, HttpError, restAction, segment, text } from '../sdk/index.js';

/** Automatisch's contact arguments, and the HubSpot properties they set. */
const contactArguments = {
  company: text({ label: 'Company name', acceptsVariables: true }),
  email: text({ label: 'Email', acceptsVariables: true }),
  firstName: text({ label: 'First name', acceptsVariables: true }),
  lastName: text({ label: 'Last name', acceptsVariables: true }),
  phone: text({ label: 'Phone', acceptsVariables: true }),
  website: text({ label: 'Website URL', acceptsVariables: true }),
  hubspotOwnerId: dynamicDropdown({ label: 'Owner', dynamicData: 'listOwners', acceptsVariables: true }),
};

type ContactFields = { readonly [K in keyof typeof contactArguments]?: string | undefined };

/** Arguments not given are left out (JSON drops undefined), so an update changes only what is given. */
const contactProperties = (p: ContactFields) => ({
  company: p.company,
  email: p.email,
  firstname: p.firstName,
  lastname: p.lastName,
  phone: p.phone,
  website: p.website,
  hubspot_owner_id: p.hubspotOwnerId,
});

export const createContact = restAction({
  key: 'createContact',
  name: 'Create contact',
  description: 'Creates a contact and returns it.',
  arguments: contactArguments,
  request: (p) => ({ method: 'POST', path: '/crm/v3/objects/contacts', body: { properties: contactProperties(p) } }),
});

export const updateContact = restAction({
  key: 'updateContact',
  name: 'Update contact',
  description: 'Changes the given properties of a contact and returns it.',
  arguments: {
    contactId: text({ label: 'Contact ID', required: true, acceptsVariables: true }),
    ...contactArguments,
  },
  request: (p) => ({
    method: 'PATCH',
    path: `/crm/v3/objects/contacts/${segment(p.contactId)}`,
    body: { properties: contactProperties(p) },
  }),
});

export const findContact = defineAction({
  key: 'findContact',
  name: 'Find contact',
  description: 'Finds a contact by email address.',
  arguments: {
    email: text({ label: 'Email', required: true, acceptsVariables: true }),
  },
  async run(ctx) {
    try {
      const { data } = await ctx.http.request<Record<string, unknown>>({
        path: `/crm/v3/objects/contacts/${segment(ctx.parameters.email)}`,
        query: { idProperty: 'email', properties: 'email,firstname,lastname,company,phone,website,hubspot_owner_id' },
      });
      return { found: true, ...data };
    } catch (error) {
      // HubSpot answers 404 for an address no contact has: a result, not a failure.
      if (error instanceof HttpError && error.status === 404) return { found: false };
      throw error;
    }
  },
});
