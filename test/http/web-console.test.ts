import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import viteConfig from '../../vite.config.js';
import { startTestInstance, type TestInstance } from '../support/http.js';

/** The same process serves the web console at `/` while every path the HTTP app owns keeps its JSON answers. */
describe('the web console beside the HTTP interface', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conveyor-console-'));
  let instance: TestInstance;
  const fetchPath = (path: string, init?: RequestInit) => instance.conveyor.app.request(path, init);

  beforeAll(async () => {
    writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="app"></div>');
    instance = await startTestInstance('sqlite', { WEB_CONSOLE_DIR: dir });
  });
  afterAll(async () => {
    await instance.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers navigations with the console page', async () => {
    for (const path of ['/', '/flows', '/executions/0b7c', '/login/callback?token=x']) {
      const res = await fetchPath(path);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain('id="app"');
    }
  });

  it('keeps the strict opener policy on the API and relaxes it on pages for the OAuth window', async () => {
    expect((await fetchPath('/api/v1/service/info')).headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect((await fetchPath('/flows')).headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    expect(
      (await fetchPath('/app/github/connections/callback?code=c&state=s')).headers.get('cross-origin-opener-policy'),
    ).toBe('unsafe-none');
    expect((await fetchPath('/flows')).headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('keeps the JSON 404 for unknown paths the HTTP app owns', async () => {
    for (const path of [
      '/api/v1/no-such-route',
      '/internal/api/v1/no-such-route',
      '/api/openapi.yaml',
      '/webhooks/unknown/path/here',
      '/graphql/nested',
      '/healthcheck/deep',
      '/metrics/x',
      '/apps/no-such-app/assets/favicon.svg',
      '/apps/github/assets/other.png',
    ]) {
      const res = await fetchPath(path);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toMatchObject({ meta: { type: 'NotFoundError' } });
    }
  });

  it('leaves the SAML sign-in paths to the HTTP app', async () => {
    const res = await fetchPath('/login/saml/a/b/c');
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('does not answer other methods with the page', async () => {
    const res = await fetchPath('/flows', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ meta: { type: 'NotFoundError' } });
  });

  it('keeps the API working', async () => {
    const res = await instance.request('GET', '/service/info');
    expect(res.status).toBe(200);
    expect(res.body.data.installationCompleted).toBe(false);
  });
});

describe('a process without built console assets', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startTestInstance('sqlite', { WEB_CONSOLE_DIR: join(tmpdir(), 'conveyor-no-console-here') });
  });
  afterAll(() => instance.close());

  it('answers / with a page that says how to build them, and serves the API', async () => {
    const res = await instance.conveyor.app.request('/');
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build');
    expect((await instance.request('GET', '/service/info')).status).toBe(200);
  });
});

describe('the console’s source maps', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conveyor-console-maps-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="app"></div>');
  writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(dir, 'assets', 'index-abc.js.map'), '{"version":3,"sources":["../src/main.tsx"]}');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const served = async (env: Record<string, string>) => {
    const instance = await startTestInstance('sqlite', { WEB_CONSOLE_DIR: dir, ...env });
    try {
      const map = await instance.conveyor.app.request('/assets/index-abc.js.map');
      const script = await instance.conveyor.app.request('/assets/index-abc.js');
      return { map: map.status, reference: script.headers.get('sourcemap') };
    } finally {
      await instance.close();
    }
  };

  it('are neither served nor referenced in production', async () => {
    const production = { NODE_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32) };
    expect(await served(production)).toEqual({ map: 404, reference: null });
    expect(await served({ NODE_ENV: 'development' })).toEqual({ map: 200, reference: 'index-abc.js.map' });
  });

  it('are built without a reference in the scripts', () => {
    expect(viteConfig.build?.sourcemap).toBe('hidden');
  });
});
