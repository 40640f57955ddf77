import type { HttpClient, HttpRequest } from '../sdk/index.js';

/** Microsoft Graph's v1.0 endpoint: every Microsoft 365 app's base URL. */
export const GRAPH_API = 'https://graph.microsoft.com/v1.0';

/** A Graph collection page: its entries, and the address of the next page while there is one. */
export interface GraphPage<T> {
  readonly value?: readonly T[];
  readonly '@odata.nextLink'?: string;
  readonly '@odata.deltaLink'?: string;
}

/**
 * The request for an address Graph answered (`@odata.nextLink`, `@odata.deltaLink`). Graph writes
 * its own absolute address; on Graph's v1.0 endpoint it becomes a path, so that the instance's
 * `APP_BASE_URL_<KEY>` (a proxy, a test's fake) serves the next page as it served the first.
 */
export const graphLink = (link: string): HttpRequest =>
  link.startsWith(`${GRAPH_API}/`) ? { path: link.slice(GRAPH_API.length) } : { url: link };

export interface GraphPagesLimits {
  /** Stops once this many entries are collected. Default 1,000. */
  readonly maxItems?: number;
  /** Stops after this many requests. Default 20. */
  readonly maxPages?: number;
}

/** Collects a Graph collection across its pages (`@odata.nextLink`), up to the limits. */
export const graphPages = async <T>(
  http: HttpClient,
  request: HttpRequest,
  { maxItems = 1000, maxPages = 20 }: GraphPagesLimits = {},
): Promise<T[]> => {
  const collected: T[] = [];
  let current: HttpRequest | null = request;
  for (let pages = 0; current && pages < maxPages && collected.length < maxItems; pages++) {
    const response = await http.request<GraphPage<T> | null>(current);
    const page: GraphPage<T> | null = response.data;
    const entries: readonly T[] = Array.isArray(page?.value) ? page.value : [];
    collected.push(...entries.slice(0, maxItems - collected.length));
    const next: unknown = page?.['@odata.nextLink'];
    current = typeof next === 'string' && next !== '' && entries.length > 0 ? graphLink(next) : null;
  }
  return collected;
};

/** A value inside an OData string literal: single quotes doubled, as OData's grammar says. */
export const odataString = (value: string): string => `'${value.replace(/'/g, "''")}'`;
