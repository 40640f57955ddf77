import { type HttpClient, type Pagination, paginate } from '../sdk/index.js';

/** Asana's lists: `{ data, next_page: { offset } }`, 100 entries a page at most. */
export const byOffset: Pagination = { kind: 'cursor', items: 'data', next: 'next_page.offset', param: 'offset' };

export type Compact = { gid: string; name?: string };

/** Every page of an Asana list (up to the kit's limits). */
export const listAll = <T = Compact>(
  http: HttpClient,
  path: string,
  query: Readonly<Record<string, string | undefined>> = {},
) => paginate<T>(http, { path, query: { ...query, limit: 100 } }, byOffset);

/** Asana wraps single objects as `{ data }`: the step outputs the object. */
export const unwrap = (answer: { data?: unknown }) => answer.data;
