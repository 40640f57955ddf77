import { boolean, defineAction, text } from '../sdk/index.js';
import { assertNoUserErrors, shopifyGraphql, type UserError } from './graphql.js';

const CUSTOMER =
  'id firstName lastName displayName tags note createdAt defaultEmailAddress { emailAddress } defaultPhoneNumber { phoneNumber }';

/** Comma-separated tags as Shopify's list. */
export const tagList = (tags: string | undefined) =>
  tags === undefined
    ? undefined
    : tags
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean);

export const createCustomer = defineAction({
  key: 'createCustomer',
  name: 'Create customer',
  description: 'Creates a customer and returns it.',
  arguments: {
    email: text({ label: 'Email', acceptsVariables: true }),
    firstName: text({ label: 'First name', acceptsVariables: true }),
    lastName: text({ label: 'Last name', acceptsVariables: true }),
    phone: text({ label: 'Phone', description: 'In E.164 format, e.g. +16135551111.', acceptsVariables: true }),
    tags: text({ label: 'Tags', description: 'Separated by commas.', acceptsVariables: true }),
    note: text({ label: 'Note', acceptsVariables: true }),
    acceptsMarketing: boolean({ label: 'Subscribed to e-mail marketing', default: false }),
  },
  async run(ctx) {
    const p = ctx.parameters;
    const data = await shopifyGraphql<{
      customerCreate: { customer: unknown; userErrors: readonly UserError[] };
    }>(
      ctx.http,
      `mutation ($input: CustomerInput!) { customerCreate(input: $input) { customer { ${CUSTOMER} } userErrors { field message } } }`,
      {
        input: {
          email: p.email,
          firstName: p.firstName,
          lastName: p.lastName,
          phone: p.phone,
          tags: tagList(p.tags),
          note: p.note,
          ...(p.acceptsMarketing &&
            p.email !== undefined && {
              emailMarketingConsent: { marketingState: 'SUBSCRIBED', marketingOptInLevel: 'SINGLE_OPT_IN' },
            }),
        },
      },
    );
    assertNoUserErrors('create the customer', data.customerCreate.userErrors);
    return data.customerCreate.customer;
  },
});

export const findCustomer = defineAction({
  key: 'findCustomer',
  name: 'Find customer',
  description: 'Finds a customer by e-mail address.',
  arguments: {
    email: text({ label: 'Email', required: true, acceptsVariables: true }),
  },
  async run(ctx) {
    // A quoted search term: the address is one value, whatever it holds.
    const search = `email:"${ctx.parameters.email.replace(/["\\]/g, '\\$&')}"`;
    const data = await shopifyGraphql<{ customers: { nodes: readonly Record<string, unknown>[] } }>(
      ctx.http,
      `query ($search: String!) { customers(first: 1, query: $search) { nodes { ${CUSTOMER} } } }`,
      { search },
    );
    const customer = data.customers.nodes[0];
    return customer ? { found: true, ...customer } : { found: false };
  },
});
