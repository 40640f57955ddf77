import { Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { fail } from '../failures.js';

/** Where each app's `iconUrl` points (the app SDK builds it): Automatisch's address for an icon. */
export const APP_ICON_ROUTE = '/apps/:appKey/assets/favicon.svg';

const ICON_HEADERS = {
  'content-type': 'image/svg+xml',
  'cache-control': 'public, max-age=86400',
  // Opened on its own, an SVG is a document of this origin: it may run and fetch nothing.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
} as const;

/** The apps' icons: public, as an <img> sends no bearer token and an icon tells nothing private. */
export const appIconRoutes = (appIcon: HttpDeps['appIcon']) =>
  new Hono<AppEnv>().get(APP_ICON_ROUTE, (c) => {
    const svg = appIcon(c.req.param('appKey')) ?? fail({ code: 'http.route_not_found' });
    return c.body(svg, 200, ICON_HEADERS);
  });
