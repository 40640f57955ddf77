import type { DraftContext } from '../sdk/index.js';
import { type Connection, collectNodes } from './graphql.js';

interface Collection {
  readonly id: string;
  readonly title: string;
}

/** The shop's collections, every page. */
export const listCollections = async (ctx: DraftContext) => {
  const collections = await collectNodes<Collection, { collections: Connection<Collection> }>(
    ctx.http,
    `query ($after: String) {
      collections(first: 250, after: $after, sortKey: TITLE) { nodes { id title } pageInfo { hasNextPage endCursor } }
    }`,
    {},
    (data) => data.collections,
  );
  return collections.map((collection) => ({ name: collection.title, value: collection.id }));
};
