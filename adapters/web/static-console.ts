import { readFile, stat } from 'node:fs/promises';
import { basename, extname, join, normalize, sep } from 'node:path';

/**
 * Serves the built web console (the output of `vite build`) for the GET navigations the HTTP app
 * does not route itself. Hashed files under `assets/` never change, so browsers keep them a year;
 * everything else is revalidated so a new release is picked up at once.
 */
export type ConsoleHandler = (request: Request) => Promise<Response | null>;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Pages keep the references to the OAuth consent windows they open across the provider's origin
 * (`same-origin-allow-popups`); the page the provider sends that window back to must stay reachable
 * from its opener, so it opts out. Everything else keeps the strict default of the HTTP app.
 */
const OAUTH_CALLBACK = /^\/app\/[^/]+\/connections\/callback$/;
const openerPolicy = (pathname: string) => (OAUTH_CALLBACK.test(pathname) ? 'unsafe-none' : 'same-origin-allow-popups');
const REVALIDATE = 'no-cache';

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conveyor</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>The web console is not built</h1>
<p>This Conveyor process found no built console assets. Run <code>npm run build</code> (or
<code>npm install</code>, which builds them) and restart, or set <code>WEB_CONSOLE_DIR</code> to
the folder that holds them. The REST interface works meanwhile under <code>/api/v1</code>.</p>
</body></html>`;

const isFile = async (path: string) => {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
};

const fileResponse = async (path: string, cacheControl: string, head: boolean, extra: Record<string, string> = {}) => {
  const body = await readFile(path);
  const headers = {
    'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
    'cache-control': cacheControl,
    'content-length': String(body.byteLength),
    ...extra,
  };
  return new Response(head ? null : body, { status: 200, headers });
};

export interface ConsoleOptions {
  /**
   * Serve the scripts' source maps, and point browsers at them with a `SourceMap` header (the build
   * leaves no reference in the scripts). Off in production: they would publish the source.
   */
  readonly sourceMaps: boolean;
}

/** `directory` null or without an `index.html`: every navigation answers a page that says how to build it. */
export const staticConsole = (
  directory: string | null,
  { sourceMaps }: ConsoleOptions = { sourceMaps: false },
): ConsoleHandler => {
  const root = directory ? normalize(directory) : null;
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    const head = request.method === 'HEAD';
    const { pathname } = new URL(request.url);
    const index = root ? join(root, 'index.html') : null;
    if (!root || !index || !(await isFile(index))) {
      return new Response(head ? null : NOT_BUILT, {
        status: 503,
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': REVALIDATE },
      });
    }
    let relative: string;
    try {
      relative = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    const candidate = normalize(join(root, relative));
    // A path that climbs out of the folder is simply not one of its files.
    const inside = candidate.startsWith(root.endsWith(sep) ? root : root + sep);
    const kind = extname(candidate);
    if (kind === '.map' && !sourceMaps) return null;
    if (inside && (await isFile(candidate))) {
      const hashed = relative.startsWith('/assets/');
      const extra: Record<string, string> =
        kind === '.html'
          ? { 'cross-origin-opener-policy': openerPolicy(pathname) }
          : kind === '.js' && sourceMaps && (await isFile(`${candidate}.map`))
            ? { sourcemap: `${basename(candidate)}.map` }
            : {};
      return fileResponse(candidate, hashed ? IMMUTABLE : REVALIDATE, head, extra);
    }
    // A missing file (it has an extension) is a 404; any other path is a page of the single-page app.
    if (extname(relative) !== '') return null;
    return fileResponse(index, REVALIDATE, head, { 'cross-origin-opener-policy': openerPolicy(pathname) });
  };
};
