import { cors } from 'hono/cors';

/**
 * CORS for the API, as Automatisch answers it (`cors({origin: WEB_APP_URL, credentials: true})`), so
 * a web app on another origin, Automatisch's own client among them, can call it. Only the listed
 * origins are named back, never the caller's whatever it is: credentials go with these answers.
 * Webhook routes are not under it: their answers are the flows' own.
 */
export const apiCors = (origins: readonly string[]) =>
  cors({
    origin: (origin) => (origins.includes(origin) ? origin : null),
    credentials: true,
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    // X-Conveyor-Console: the web console's header (the cookie counts only with it, decisions.md §31).
    allowHeaders: ['Authorization', 'Content-Type', 'X-Api-Token', 'X-Conveyor-Console', 'X-Request-Id'],
    exposeHeaders: ['Retry-After', 'X-Request-Id'],
    maxAge: 600,
  });
