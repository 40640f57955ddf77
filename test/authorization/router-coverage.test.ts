import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGraphqlSchema } from '../../adapters/http/graphql/schema.js';
import { startTestInstance, type TestInstance } from '../support/http.js';
import { GRAPHQL_CASES } from './graphql-operations.js';
import { ROUTES } from './routes.js';

let instance: TestInstance;
beforeAll(async () => {
  instance = await startTestInstance('sqlite');
});
afterAll(() => instance.close());

describe('the authorization matrix', () => {
  it('has a row for every route the REST router serves, and none it does not', () => {
    // The REST routes by their path under the mount; the other routes under /api by their whole path.
    const served = new Set(
      instance.conveyor.app.routes
        .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/'))
        .map((r) => `${r.method} ${r.path.startsWith('/api/v1/') ? r.path.slice('/api/v1'.length) : r.path}`),
    );
    const listed = new Set(ROUTES.map((r) => `${r.method} ${r.route}`));
    expect([...served].filter((route) => !listed.has(route)).sort()).toEqual([]);
    expect([...listed].filter((route) => !served.has(route)).sort()).toEqual([]);
  });

  it('has a row for every root field the GraphQL endpoint serves, and none it does not', () => {
    const schema = buildGraphqlSchema();
    const served = [schema.getQueryType(), schema.getMutationType()].flatMap((type) =>
      Object.keys(type?.getFields() ?? {}),
    );
    expect(GRAPHQL_CASES.map((op) => op.field).sort()).toEqual(served.sort());
  });
});
