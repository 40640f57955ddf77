import { defineAction, dropdown, dynamicMultiSelect, text } from '../sdk/index.js';
import { tagList } from './customers.js';
import { assertNoUserErrors, shopifyGraphql, type UserError } from './graphql.js';

interface CreatedProduct {
  readonly id: string;
  readonly variants: { readonly nodes: readonly { readonly id: string }[] };
}

export const createProduct = defineAction({
  key: 'createProduct',
  name: 'Create product',
  description: 'Creates a product (with its default variant at a price, when given) and returns it.',
  arguments: {
    title: text({ label: 'Title', required: true, acceptsVariables: true }),
    descriptionHtml: text({ label: 'Description', description: 'HTML is allowed.', acceptsVariables: true }),
    vendor: text({ label: 'Vendor', acceptsVariables: true }),
    productType: text({ label: 'Product type', acceptsVariables: true }),
    tags: text({ label: 'Tags', description: 'Separated by commas.', acceptsVariables: true }),
    price: text({ label: 'Price', placeholder: '19.99', acceptsVariables: true }),
    status: dropdown({
      label: 'Status',
      default: 'DRAFT',
      options: [
        { label: 'Draft', value: 'DRAFT' },
        { label: 'Active', value: 'ACTIVE' },
        { label: 'Archived', value: 'ARCHIVED' },
      ],
    }),
    collections: dynamicMultiSelect({ label: 'Collections', dynamicData: 'listCollections' }),
  },
  async run(ctx) {
    const p = ctx.parameters;
    const created = await shopifyGraphql<{
      productCreate: { product: CreatedProduct; userErrors: readonly UserError[] };
    }>(
      ctx.http,
      `mutation ($product: ProductCreateInput!) {
        productCreate(product: $product) {
          product { id title handle status vendor productType tags variants(first: 1) { nodes { id price } } }
          userErrors { field message }
        }
      }`,
      {
        product: {
          title: p.title,
          descriptionHtml: p.descriptionHtml,
          vendor: p.vendor,
          productType: p.productType,
          tags: tagList(p.tags),
          status: p.status,
          ...(p.collections && p.collections.length > 0 && { collectionsToJoin: p.collections }),
        },
      },
    );
    assertNoUserErrors('create the product', created.productCreate.userErrors);
    const product = created.productCreate.product;
    const variant = product.variants.nodes[0];
    if (p.price === undefined || !variant) return product;
    // A new product has one variant; its price is set with the variants mutation.
    const priced = await shopifyGraphql<{
      productVariantsBulkUpdate: { productVariants: readonly unknown[]; userErrors: readonly UserError[] };
    }>(
      ctx.http,
      `mutation ($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
        productVariantsBulkUpdate(productId: $productId, variants: $variants) {
          productVariants { id price }
          userErrors { field message }
        }
      }`,
      { productId: product.id, variants: [{ id: variant.id, price: p.price }] },
    );
    assertNoUserErrors('set the price', priced.productVariantsBulkUpdate.userErrors);
    return { ...product, variants: { nodes: priced.productVariantsBulkUpdate.productVariants } };
  },
});
