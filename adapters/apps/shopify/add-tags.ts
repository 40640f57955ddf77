import { defineAction, text } from '../sdk/index.js';
import { tagList } from './customers.js';
import { assertNoUserErrors, shopifyGraphql, type UserError } from './graphql.js';

export const addTags = defineAction({
  key: 'addTags',
  name: 'Add tags',
  description: 'Adds tags to an order, a customer, a product or a draft order.',
  arguments: {
    id: text({
      label: 'ID',
      required: true,
      placeholder: 'gid://shopify/Order/123',
      description: "The record's global ID, as the triggers give it.",
      acceptsVariables: true,
    }),
    tags: text({ label: 'Tags', required: true, description: 'Separated by commas.', acceptsVariables: true }),
  },
  async run(ctx) {
    const data = await shopifyGraphql<{ tagsAdd: { node: { id: string } | null; userErrors: readonly UserError[] } }>(
      ctx.http,
      'mutation ($id: ID!, $tags: [String!]!) { tagsAdd(id: $id, tags: $tags) { node { id } userErrors { field message } } }',
      { id: ctx.parameters.id, tags: tagList(ctx.parameters.tags) },
    );
    assertNoUserErrors('add the tags', data.tagsAdd.userErrors);
    return { id: data.tagsAdd.node?.id ?? ctx.parameters.id, tags: tagList(ctx.parameters.tags) };
  },
});
