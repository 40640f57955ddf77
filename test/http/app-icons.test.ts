import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInApps } from '../../adapters/apps/index.js';
import { startTestInstance, type TestInstance } from '../support/http.js';

describe('app icons', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startTestInstance('sqlite');
  });
  afterAll(() => instance.close());

  const get = (path: string) => instance.conveyor.app.request(`http://conveyor.test${path}`);

  it('are served for every app, at the iconUrl the API gives', async () => {
    const listed = instance.conveyor.useCases.listApps({});
    expect(listed.map((app) => app.key).sort()).toEqual(builtInApps.map((app) => app.key).sort());
    for (const app of listed) {
      const res = await get(app.iconUrl);
      expect(res.status, app.iconUrl).toBe(200);
      expect(res.headers.get('content-type'), app.iconUrl).toMatch(/^image\/svg\+xml/);
      expect(res.headers.get('content-security-policy'), app.iconUrl).toContain("default-src 'none'");
      expect(await res.text()).toBe(builtInApps.find((a) => a.key === app.key)?.icon);
    }
  });

  it('answer 404 for a key no app has', async () => {
    const res = await get('/apps/no-such-app/assets/favicon.svg');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ meta: { type: 'NotFoundError' } });
  });
});
