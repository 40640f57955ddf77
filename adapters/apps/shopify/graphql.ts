import { type HttpClient, TemporaryError } from '../sdk/index.js';

/** The GraphQL Admin API version every call names (Shopify keeps a version for a year at least). */
export const API_VERSION = '2026-07';

interface GraphqlError {
  readonly message: string;
  readonly extensions?: { readonly code?: string };
}

interface GraphqlAnswer<T> {
  readonly data?: T | null;
  readonly errors?: readonly GraphqlError[] | string;
  readonly extensions?: {
    readonly cost?: {
      readonly requestedQueryCost?: number;
      readonly throttleStatus?: { readonly currentlyAvailable?: number; readonly restoreRate?: number };
    };
  };
}

/** How long until the query's cost is available again, from the throttle status Shopify reports. */
const throttleWait = (answer: GraphqlAnswer<unknown>): number => {
  const cost = answer.extensions?.cost;
  const needed = (cost?.requestedQueryCost ?? 0) - (cost?.throttleStatus?.currentlyAvailable ?? 0);
  const rate = cost?.throttleStatus?.restoreRate ?? 0;
  return rate > 0 && needed > 0 ? Math.ceil(needed / rate) : 2;
};

/**
 * One GraphQL Admin API call. Shopify answers errors with status 200: a throttled query is a
 * TemporaryError (the engine retries it after the wait Shopify's cost figures give), any other
 * error fails with Shopify's words.
 */
export const shopifyGraphql = async <T>(
  http: HttpClient,
  query: string,
  variables: Readonly<Record<string, unknown>> = {},
): Promise<T> => {
  const { data: answer } = await http.request<GraphqlAnswer<T>>({
    method: 'POST',
    path: '/graphql.json',
    body: { query, variables },
  });
  const errors = typeof answer.errors === 'string' ? [{ message: answer.errors }] : (answer.errors ?? []);
  if (errors.some((error) => error.extensions?.code === 'THROTTLED')) {
    throw new TemporaryError('Shopify throttled the query.', { retryAfterSeconds: throttleWait(answer) });
  }
  if (errors.length > 0 || !answer.data) {
    throw new Error(`Shopify refused the query: ${errors.map((error) => error.message).join('; ') || 'no data'}`);
  }
  return answer.data;
};

export interface UserError {
  readonly field?: readonly string[] | null;
  readonly message: string;
}

/** A mutation's `userErrors` (a taken e-mail, a missing title) fail the step with their words. */
export const assertNoUserErrors = (what: string, errors: readonly UserError[]) => {
  if (errors.length === 0) return;
  const words = errors.map((error) =>
    error.field?.length ? `${error.field.join('.')}: ${error.message}` : error.message,
  );
  throw new Error(`Shopify could not ${what}: ${words.join('; ')}`);
};

export interface Connection<T> {
  readonly nodes: readonly T[];
  readonly pageInfo: { readonly hasNextPage: boolean; readonly endCursor: string | null };
}

/**
 * Every node of a paginated connection (`first`/`after` cursors), up to `maxItems`. `pick` finds
 * the connection in each answer; the query takes `$after: String`.
 */
export const collectNodes = async <T, D>(
  http: HttpClient,
  query: string,
  variables: Readonly<Record<string, unknown>>,
  pick: (data: D) => Connection<T>,
  { maxItems = 1000, maxPages = 20 }: { maxItems?: number; maxPages?: number } = {},
): Promise<T[]> => {
  const nodes: T[] = [];
  let after: string | null = null;
  for (let page = 0; page < maxPages && nodes.length < maxItems; page++) {
    const connection = pick(await shopifyGraphql<D>(http, query, { ...variables, after }));
    nodes.push(...connection.nodes.slice(0, maxItems - nodes.length));
    if (!connection.pageInfo.hasNextPage || connection.nodes.length === 0) break;
    after = connection.pageInfo.endCursor;
  }
  return nodes;
};
