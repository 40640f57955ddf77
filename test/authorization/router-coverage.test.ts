import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestInstance, type TestInstance } from '../support/http.js';
import { ROUTES } from './routes.js';

let instance: TestInstance;
beforeAll(async () => {
  instance = await startTestInstance('sqlite');
});
afterAll(() => instance.close());

describe('the authorization matrix', () => {
  it('has a row for every route the REST router serves, and none it does not', () => {
    const served = new Set(
      instance.conveyor.app.routes
        .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/v1/'))
        .map((r) => `${r.method} ${r.path.slice('/api/v1'.length)}`),
    );
    const listed = new Set(ROUTES.map((r) => `${r.method} ${r.route}`));
    expect([...served].filter((route) => !listed.has(route)).sort()).toEqual([]);
    expect([...listed].filter((route) => !served.has(route)).sort()).toEqual([]);
  });
});
