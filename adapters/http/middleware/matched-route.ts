import type { Context } from 'hono';
import { routePath } from 'hono/route';

/** The pattern of the route that answered (`/api/v1/flows/:flowId`), or `(unmatched)`: never the URL. */
export const matchedRoute = (c: Context): string => {
  const route = routePath(c, -1);
  return route === '*' || route === '/*' ? '(unmatched)' : route;
};
