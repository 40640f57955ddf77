import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { staticConsole } from './static-console.js';

const dir = mkdtempSync(join(tmpdir(), 'conveyor-static-'));
mkdirSync(join(dir, 'assets'));
writeFileSync(join(dir, 'index.html'), '<div id="app"></div>');
writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
writeFileSync(join(dir, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["main.tsx"]}');
writeFileSync(join(dir, 'robots.txt'), 'User-agent: *');
writeFileSync(join(tmpdir(), 'conveyor-static-secret.txt'), 'secret');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = (path: string, method = 'GET') => staticConsole(dir)(new Request(`http://localhost${path}`, { method }));

describe('the static console handler', () => {
  it('serves hashed assets with a year-long immutable cache and their content type', async () => {
    const res = await get('/assets/index-abc123.js');
    expect(res?.status).toBe(200);
    expect(res?.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res?.headers.get('content-type')).toContain('text/javascript');
    expect(await res?.text()).toBe('console.log(1)');
  });

  it('revalidates unhashed files and answers page paths with index.html (SPA fallback)', async () => {
    expect((await get('/robots.txt'))?.headers.get('cache-control')).toBe('no-cache');
    for (const path of ['/', '/flows', '/flows/0b7c/editor', '/index.html']) {
      const res = await get(path);
      expect(res?.status).toBe(200);
      expect(res?.headers.get('cache-control')).toBe('no-cache');
      expect(await res?.text()).toContain('id="app"');
    }
  });

  it('leaves missing files, other methods and paths outside its folder to the 404', async () => {
    expect(await get('/assets/missing-123.js')).toBeNull();
    expect(await get('/flows', 'POST')).toBeNull();
    expect(await get('/..%2Fconveyor-static-secret.txt')).toBeNull();
    expect(await get('/%E0%A4%A')).toBeNull();
  });

  it('lets pages keep their OAuth consent window, and the window its opener', async () => {
    expect((await get('/connections'))?.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    expect((await get('/index.html'))?.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    expect((await get('/app/github/connections/callback'))?.headers.get('cross-origin-opener-policy')).toBe(
      'unsafe-none',
    );
    expect((await get('/assets/index-abc123.js'))?.headers.has('cross-origin-opener-policy')).toBe(false);
  });

  it('serves source maps, and points the scripts at them, only when told to (not in production)', async () => {
    const map = '/assets/index-abc123.js.map';
    expect(await get(map)).toBeNull();
    expect((await get('/assets/index-abc123.js'))?.headers.has('sourcemap')).toBe(false);

    const developing = staticConsole(dir, { sourceMaps: true });
    const served = await developing(new Request(`http://localhost${map}`));
    expect(served?.status).toBe(200);
    expect(await served?.json()).toMatchObject({ version: 3 });
    const script = await developing(new Request('http://localhost/assets/index-abc123.js'));
    expect(script?.headers.get('sourcemap')).toBe('index-abc123.js.map');
  });

  it('answers HEAD without a body', async () => {
    const res = await get('/flows', 'HEAD');
    expect(res?.status).toBe(200);
    expect(await res?.text()).toBe('');
  });

  it('says how to build the console when its assets are missing', async () => {
    for (const handler of [staticConsole(null), staticConsole(join(dir, 'nowhere'))]) {
      const res = await handler(new Request('http://localhost/flows'));
      expect(res?.status).toBe(503);
      expect(await res?.text()).toContain('npm run build');
    }
  });
});
