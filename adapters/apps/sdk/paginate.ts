import { readPath } from '../../../core/domain/templating.js';
import type { HttpClient, HttpRequest } from './http-client.js';

/** Where a page's entries are: a function of the answer, or a dotted path in it (`data.items`); `''` is the answer itself. */
export type Items = string | ((data: any) => readonly unknown[] | null | undefined);
/** Where the next cursor is: a function of the answer and headers, or a dotted path (`meta.next_cursor`). */
type Next = string | ((data: any, headers: Readonly<Record<string, string>>) => string | number | null | undefined);

/** How a vendor's list answers continue; `items` finds the page's entries in the answer. */
export type Pagination =
  /** A token in the answer (`next_cursor`, `nextPageToken`, `offset`...) sent back as a query parameter. */
  | {
      readonly kind: 'cursor';
      readonly items: Items;
      readonly next: Next;
      readonly param: string;
    }
  /** Numbered pages (`page=1, 2...`); ends on a short or empty page, or when `hasMore` says so. */
  | {
      readonly kind: 'page';
      readonly items: Items;
      readonly param: string;
      readonly first?: number;
      readonly pageSize?: number;
      readonly hasMore?: (data: any) => boolean;
    }
  /** Offsets (`offset=0, 100...`) by the number of entries received; ends on a short page. */
  | { readonly kind: 'offset'; readonly items: Items; readonly param: string; readonly pageSize: number }
  /** RFC 8288 `Link: <...>; rel="next"` headers (GitHub, GitLab, Shopify, Zendesk...). */
  | { readonly kind: 'link'; readonly items: Items };

/** A page's entries, where `items` says they are; none when the answer holds no list there. */
export const entriesAt = (data: unknown, items: Items): readonly unknown[] => {
  const found = typeof items === 'string' ? readPath(data, items) : items(data);
  return Array.isArray(found) ? found : [];
};

export interface PaginateLimits {
  /** Stops once this many entries are collected (a dropdown needs no more). Default 1,000. */
  readonly maxItems?: number;
  /** Stops after this many requests whatever the vendor says. Default 50. */
  readonly maxPages?: number;
}

/** The `rel="next"` target of a Link header, if any. */
export const nextLink = (header: string | undefined): string | null => {
  if (!header) return null;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (match?.[1] && /\brel="?([^";]*\s)?next(\s[^";]*)?"?/i.test(match[2] ?? '')) return match[1];
  }
  return null;
};

/**
 * Collects the entries of a paginated list, page after page, until the vendor says there are no
 * more or a limit is reached. Each page is one `ctx.http` request, with its errors and retries.
 */
export const paginate = async <T = unknown>(
  http: HttpClient,
  request: HttpRequest,
  pagination: Pagination,
  limits: PaginateLimits = {},
): Promise<T[]> => {
  const maxItems = limits.maxItems ?? 1000;
  const maxPages = limits.maxPages ?? 50;
  const collected: T[] = [];
  let current: HttpRequest = request;
  let page = pagination.kind === 'page' ? (pagination.first ?? 1) : 0;
  if (pagination.kind === 'page') current = { ...request, query: { ...request.query, [pagination.param]: page } };
  if (pagination.kind === 'offset') current = { ...request, query: { ...request.query, [pagination.param]: 0 } };

  for (let pages = 0; pages < maxPages && collected.length < maxItems; pages++) {
    const { data, headers } = await http.request(current);
    const items = entriesAt(data, pagination.items) as readonly T[];
    collected.push(...items.slice(0, maxItems - collected.length));
    let next: HttpRequest | null = null;
    switch (pagination.kind) {
      case 'cursor': {
        const token =
          typeof pagination.next === 'string' ? readPath(data, pagination.next) : pagination.next(data, headers);
        if (typeof token === 'string' ? token !== '' : typeof token === 'number') {
          next = { ...request, query: { ...request.query, [pagination.param]: token as string | number } };
        }
        break;
      }
      case 'page': {
        const more = pagination.hasMore
          ? pagination.hasMore(data)
          : items.length > 0 && (pagination.pageSize === undefined || items.length >= pagination.pageSize);
        page += 1;
        if (more) next = { ...request, query: { ...request.query, [pagination.param]: page } };
        break;
      }
      case 'offset':
        if (items.length >= pagination.pageSize) {
          next = { ...request, query: { ...request.query, [pagination.param]: collected.length } };
        }
        break;
      case 'link': {
        const link = nextLink(headers.link);
        // The next page's address carries its own query: the first request's is not added again.
        if (link) next = { ...request, path: undefined, url: link, query: {} };
        break;
      }
    }
    if (!next || items.length === 0) break;
    current = next;
  }
  return collected;
};
