import { defineAction, restAction, text } from '../sdk/index.js';

export const createCustomer = restAction({
  key: 'createCustomer',
  name: 'Create customer',
  description: 'Creates a customer account and returns it.',
  arguments: {
    email: text({ label: 'Email', required: true, acceptsVariables: true }),
    firstName: text({ label: 'First name', acceptsVariables: true }),
    lastName: text({ label: 'Last name', acceptsVariables: true }),
    username: text({
      label: 'Username',
      description: 'Made from the e-mail address when empty.',
      acceptsVariables: true,
    }),
    phone: text({ label: 'Phone', acceptsVariables: true }),
  },
  request: (p) => ({
    method: 'POST',
    path: '/customers',
    body: {
      email: p.email,
      first_name: p.firstName,
      last_name: p.lastName,
      username: p.username,
      ...(p.phone !== undefined && { billing: { phone: p.phone } }),
    },
  }),
});

export const findCustomer = defineAction({
  key: 'findCustomer',
  name: 'Find customer',
  description: 'Finds a customer account by e-mail address.',
  arguments: {
    email: text({ label: 'Email', required: true, acceptsVariables: true }),
  },
  async run(ctx) {
    const { data } = await ctx.http.request<readonly Record<string, unknown>[]>({
      path: '/customers',
      query: { email: ctx.parameters.email, role: 'all' },
    });
    return data[0] ? { found: true, ...data[0] } : { found: false };
  },
});
