import { type HttpClient, matches, type Pagination, paginate } from '../sdk/index.js';

/** A Pipedrive id typed or picked: digits only, sent as a number (API v2 coerces nothing). */
export const numericId = matches(/^\d+$/, 'must be a numeric Pipedrive ID.');

export const toId = (value: string | undefined) => (value === undefined ? undefined : Number(value));

/** API v2 lists: `data`, and `additional_data.next_cursor` until the last page. */
/** Pipedrive pages by a token in the answer, in both API versions. */
export type CursorPages = Extract<Pagination, { kind: 'cursor' }>;

export const v2Pages: CursorPages = {
  kind: 'cursor',
  items: (data) => data.data,
  next: (data) => data.additional_data?.next_cursor,
  param: 'cursor',
};

/** API v1 lists: `start` offsets, `additional_data.pagination.more_items_in_collection`. */
export const v1Pages: CursorPages = {
  kind: 'cursor',
  items: (data) => data.data,
  next: (data) => {
    const page = data.additional_data?.pagination;
    return page?.more_items_in_collection
      ? (page.next_start ?? Number(page.start ?? 0) + Number(page.limit ?? 0))
      : null;
  },
  param: 'start',
};

/** What a Pipedrive answer carries: `{ success, data }`; the step's output is `data`. */
export const dataOf = (answer: { data?: unknown }) => answer.data;

export const listAll = <T>(
  http: HttpClient,
  path: string,
  query: Readonly<Record<string, string | number>>,
  maxItems = 500,
) =>
  paginate<T>(
    http,
    { path, query: { ...query, limit: path.startsWith('/api/v2/') ? 500 : 100 } },
    path.startsWith('/api/v2/') ? v2Pages : v1Pages,
    {
      maxItems,
    },
  );
