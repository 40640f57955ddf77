import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { SignedIn } from '../../core/application/auth/issue-access-token.js';
import type { HttpSettings } from './context.js';

/**
 * The web console's session (decisions.md §31): its access token lives in an HttpOnly cookie that
 * page script cannot read, sent only to the API, and counted only on requests that also carry
 * CONSOLE_HEADER. A page on another site cannot add that header without a CORS preflight, which
 * only the web app's origin passes, so the header is the cross-site request guard beyond
 * SameSite=Strict. API clients keep presenting the token themselves.
 */
const SESSION_COOKIE = 'conveyor_session';
export const CONSOLE_HEADER = 'x-conveyor-console';

/** The cookie's attributes, the same when it is set and when it is cleared. */
const cookieAttributes = (settings: Pick<HttpSettings, 'webAppUrl'>) =>
  ({
    path: '/api/v1',
    httpOnly: true,
    secure: settings.webAppUrl.startsWith('https:'),
    sameSite: 'Strict',
  }) as const;

export const isConsoleRequest = (c: Context) => Boolean(c.req.header(CONSOLE_HEADER)?.trim());

/** The session cookie's token, when the request is the console's; null otherwise. */
export const consoleSessionToken = (c: Context): string | null =>
  isConsoleRequest(c) ? getCookie(c, SESSION_COOKIE) || null : null;

export const startConsoleSession = (
  c: Context,
  settings: Pick<HttpSettings, 'webAppUrl'>,
  { token, expiresAt }: SignedIn,
) => {
  setCookie(c, SESSION_COOKIE, token, { ...cookieAttributes(settings), expires: expiresAt });
  // An answer that sets the session must not be kept by any cache.
  c.header('Cache-Control', 'no-store');
};

export const endConsoleSession = (c: Context, settings: Pick<HttpSettings, 'webAppUrl'>) => {
  deleteCookie(c, SESSION_COOKIE, cookieAttributes(settings));
};
