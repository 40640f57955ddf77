import { defineAction, dynamicMultiSelect, HttpError, keyValueList, restAction, text } from '../sdk/index.js';

/** Custom fields are named by id (`e1_T`, `w2_N`...); reserved ones (`city`, `phone_number`...) by name. */
const CUSTOM_FIELD = /^[ew]\d+_[TDN]$/;

export const addOrUpdateContact = restAction({
  key: 'addOrUpdateContact',
  name: 'Add or update contact',
  description: 'Adds a marketing contact, or updates the one with that address, and adds it to lists.',
  arguments: {
    email: text({ label: 'E-mail address', required: true, acceptsVariables: true }),
    firstName: text({ label: 'First name', acceptsVariables: true }),
    lastName: text({ label: 'Last name', acceptsVariables: true }),
    listIds: dynamicMultiSelect({ label: 'Lists', dynamicData: 'listLists' }),
    fields: keyValueList({
      label: 'Other fields',
      description: 'Reserved fields by name (city, country, phone_number...), custom fields by id (e1_T).',
      acceptsVariables: true,
    }),
  },
  request: (p) => {
    const fields = p.fields ?? [];
    const custom = fields.filter((field) => CUSTOM_FIELD.test(field.key));
    const reserved = fields.filter((field) => !CUSTOM_FIELD.test(field.key));
    return {
      method: 'PUT',
      path: '/marketing/contacts',
      body: {
        list_ids: p.listIds?.length ? p.listIds : undefined,
        contacts: [
          {
            ...Object.fromEntries(reserved.map((field) => [field.key, field.value])),
            email: p.email.trim(),
            first_name: p.firstName,
            last_name: p.lastName,
            ...(custom.length > 0 && {
              custom_fields: Object.fromEntries(custom.map((field) => [field.key, field.value])),
            }),
          },
        ],
      },
    };
  },
  // SendGrid queues the change (202): the job tells when it is done.
  output: (data: { job_id: string }, p) => ({ jobId: data.job_id, email: p.email.trim() }),
});

export const findContact = defineAction({
  key: 'findContact',
  name: 'Find contact',
  description: 'Finds the marketing contact with an e-mail address.',
  arguments: { email: text({ label: 'E-mail address', required: true, acceptsVariables: true }) },
  async run(ctx) {
    // Contacts are kept in lower case.
    const email = ctx.parameters.email.trim().toLowerCase();
    const answer = await ctx.http
      .request<{ result?: Record<string, { contact?: unknown }> }>({
        method: 'POST',
        path: '/marketing/contacts/search/emails',
        body: { emails: [email] },
      })
      .catch((error: unknown) => {
        // SendGrid answers 404 when none of the addresses is a contact.
        if (error instanceof HttpError && error.status === 404) return null;
        throw error;
      });
    const contact = answer?.data.result?.[email]?.contact ?? null;
    return { found: contact !== null, contact };
  },
});
