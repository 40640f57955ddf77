import { type HttpClient, type Pagination, paginate } from '../sdk/index.js';

const PAGE_SIZE = 100;

/** WordPress's numbered pages of up to 100 (`page`, `per_page`); a short page is the last. */
export const wpPages: Pagination = { kind: 'page', items: '', param: 'page', pageSize: PAGE_SIZE };

/** Every record of a list (1,000 at most). */
export const listPages = <T>(http: HttpClient, path: string, query: Readonly<Record<string, string>>) =>
  paginate<T>(http, { path, query: { ...query, per_page: PAGE_SIZE } }, wpPages);
