import { type DraftContext, dropdown, dynamicMultiSelect, restAction, text } from '../sdk/index.js';
import { listPages } from './pages.js';

export const createProduct = restAction({
  key: 'createProduct',
  name: 'Create product',
  description: 'Creates a simple product and returns it.',
  arguments: {
    name: text({ label: 'Name', required: true, acceptsVariables: true }),
    regularPrice: text({ label: 'Price', placeholder: '19.99', acceptsVariables: true }),
    sku: text({ label: 'SKU', acceptsVariables: true }),
    description: text({ label: 'Description', description: 'HTML is allowed.', acceptsVariables: true }),
    shortDescription: text({ label: 'Short description', acceptsVariables: true }),
    status: dropdown({
      label: 'Status',
      default: 'draft',
      options: [
        { label: 'Draft', value: 'draft' },
        { label: 'Pending review', value: 'pending' },
        { label: 'Private', value: 'private' },
        { label: 'Published', value: 'publish' },
      ],
    }),
    categories: dynamicMultiSelect({ label: 'Categories', dynamicData: 'listCategories' }),
  },
  request: (p) => ({
    method: 'POST',
    path: '/products',
    body: {
      name: p.name,
      type: 'simple',
      regular_price: p.regularPrice,
      sku: p.sku,
      description: p.description,
      short_description: p.shortDescription,
      status: p.status,
      ...(p.categories && p.categories.length > 0 && { categories: p.categories.map((id) => ({ id: Number(id) })) }),
    },
  }),
});

/** The store's product categories, every page. */
export const listCategories = async (ctx: DraftContext) => {
  const categories = await listPages<{ id: number; name: string }>(ctx.http, '/products/categories', {
    orderby: 'name',
  });
  return categories.map((category) => ({ name: category.name, value: String(category.id) }));
};
