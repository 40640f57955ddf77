import { type HttpClient, type HttpRequest, type PaginateLimits, paginate } from '../sdk/index.js';

type Query = NonNullable<HttpRequest['query']>;

/**
 * A request to the REST API as `/?rest_route=/wp/v2/...`: it works whatever the site's permalinks
 * (plain ones have no `/wp-json/`), and under a site in a sub-folder.
 */
export const wpRequest = (route: string, query: Query = {}): HttpRequest & { path: string; query: Query } => ({
  path: '/',
  query: { rest_route: route, ...query },
});

/**
 * Every page of a WordPress collection (`per_page` 100, its largest): the answer is the list, and
 * `X-WP-TotalPages` says how many pages there are (a page past the last is an error, not empty).
 */
export const wpPages = <T>(http: HttpClient, route: string, query: Query = {}, limits?: PaginateLimits) => {
  let page = 1;
  return paginate<T>(
    http,
    wpRequest(route, { per_page: 100, ...query }),
    {
      kind: 'cursor',
      items: '',
      next: (_data, headers) => (page < Number(headers['x-wp-totalpages'] ?? 1) ? ++page : null),
      param: 'page',
    },
    limits,
  );
};
